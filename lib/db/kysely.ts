// Typed SQL: a Kysely query builder over the one pg pool under the Prisma client (lib/db/prisma.ts), with the
// table types generated from prisma/schema.prisma by the prisma-kysely generator (generated/kysely, written by
// `prisma generate` like the client). A column renamed in the schema fails `npm run typecheck` in every
// statement that names it. Each domain's statements live in its lib/<domain>/sql.ts
// (docs/architecture/typed-sql.md).
//
// Three ways to run a statement, all on the same connections:
//   - sqlDb(): Kysely's own execution (one statement or a Kysely transaction), through the pool;
//   - inPrismaTx(tx, query): compiled here, run inside a caller's Prisma transaction ($queryRawUnsafe, still
//     parameterised), for operations whose transaction spans Prisma calls;
//   - poolQuery / poolTransaction (lib/db/pool-query.ts, pool-transaction.ts): compiled here, sent to pg
//     directly, prepared once per connection in a transaction, for the hot paths.
import "server-only";
import { Kysely, PostgresDialect, sql, type Compilable, type CompiledQuery, type RawBuilder } from "kysely";
import { Prisma } from "@/generated/prisma/client";
import type { DB } from "@/generated/kysely/tables";
import type { Statement } from "@/lib/db/pool-query";
import { db, dbPool } from "@/lib/db/prisma";

/**
 * The database as the SQL sees it: the tables generated from schema.prisma. Every table and column the raw
 * SQL migrations add is in schema.prisma too; their SQL functions (e.g. audit_chain_acquire) are typed where
 * a domain's sql.ts calls them.
 */
export type Database = DB;

const globalForKysely = globalThis as unknown as { kysely?: Kysely<Database> };

export type SqlQueryEvent = { sql: string; parameters: readonly unknown[] };
const queryListeners = new Set<(event: SqlQueryEvent) => void>();

/** For tools that inspect the SQL sent (a plan test, the benchmark's EXPLAIN): every statement sqlDb() runs. */
export function onSqlQuery(listener: (event: SqlQueryEvent) => void): () => void {
  queryListeners.add(listener);
  return () => queryListeners.delete(listener);
}

/** The builder; it opens no connection until a statement runs (the pool is the Prisma client's, made on first use). */
export function sqlDb(): Kysely<Database> {
  globalForKysely.kysely ??= new Kysely<Database>({
    // Each connection from the pool of the moment: disconnectDb() ends a pool and the next db() makes a new
    // one, which a pool handed to Kysely once would not follow. Ending it is the Prisma client's business.
    dialect: new PostgresDialect({ pool: { connect: () => dbPool().connect(), end: async () => {} } }),
    log: (event) => {
      if (event.level === "query") for (const listener of queryListeners) listener(event.query);
    },
  });
  return globalForKysely.kysely;
}

/** The row type a built (or compiled: lib/db/compiled-statement.ts) statement returns. */
export type RowOf<Q> = Q extends Compilable<infer R> ? R : Q extends CompiledQuery<infer R> ? R : never;

/**
 * Runs a built statement inside a caller's Prisma interactive transaction. The text and the parameters are
 * Kysely's ($1, $2, …); nothing is spliced. Rows come back as Prisma's raw mapping makes them: int8 as
 * bigint, date as a UTC-midnight Date, so statements run this way cast int8 results (`::int`) when they
 * count.
 */
export async function inPrismaTx<R>(tx: Prisma.TransactionClient, query: Statement<R>): Promise<R[]> {
  const compiled = compiledOf(query);
  return tx.$queryRawUnsafe<R[]>(compiled.sql, ...compiled.parameters);
}

function compiledOf<R>(query: Statement<R>): CompiledQuery<R> {
  return "compile" in query ? query.compile() : query;
}

/** Runs a built statement inside a caller's Prisma transaction, answering how many rows it changed. */
export async function execInPrismaTx(tx: Prisma.TransactionClient, query: Statement<unknown>): Promise<number> {
  const compiled = compiledOf(query);
  return tx.$executeRawUnsafe(compiled.sql, ...compiled.parameters);
}

/**
 * A fragment built with Prisma.sql by code whose SQL has not moved to Kysely yet, as a Kysely expression with
 * the same text and parameters. A Kysely expression passes through as it is (a caller written when the
 * fragment was still Prisma.sql keeps working).
 */
export function fromPrismaSql<T>(fragment: Prisma.Sql | RawBuilder<unknown>): RawBuilder<T> {
  if (!(fragment instanceof Prisma.Sql)) return fragment.$castTo<T>();
  const strings = Object.assign([...fragment.strings], { raw: [...fragment.strings] });
  return sql<T>(strings, ...fragment.values);
}

const PLACEHOLDER = /\$(\d+)/g;
const prismaStrings = new WeakMap<CompiledQuery<unknown>["query"], { strings: string[]; order: number[] }>();

/**
 * A compiled Kysely statement as a Prisma.sql fragment, for a statement still written with Prisma.sql that
 * embeds it (the intake's insert embeds the key check): the text split at Kysely's $n, the values in their
 * order, so Prisma numbers them afresh. Split once per compiled statement (its operation node is the key).
 */
export function toPrismaSql(compiled: CompiledQuery<unknown>): Prisma.Sql {
  let split = prismaStrings.get(compiled.query);
  if (!split) {
    const strings: string[] = [];
    const order: number[] = [];
    let from = 0;
    for (const m of compiled.sql.matchAll(PLACEHOLDER)) {
      strings.push(compiled.sql.slice(from, m.index));
      order.push(Number(m[1]) - 1);
      from = m.index + m[0].length;
    }
    strings.push(compiled.sql.slice(from));
    split = { strings, order };
    prismaStrings.set(compiled.query, split);
  }
  return new Prisma.Sql(
    split.strings,
    split.order.map((i) => compiled.parameters[i]),
  );
}

/** A built statement as a Prisma promise, for Prisma's batch `$transaction([...])` (it answers the rows changed). */
export function prismaStatement(query: Statement<unknown>) {
  const compiled = compiledOf(query);
  return db().$executeRawUnsafe(compiled.sql, ...compiled.parameters);
}
