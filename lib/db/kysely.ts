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
import { Kysely, PostgresDialect, type Compilable, type CompiledQuery } from "kysely";
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

/** A built statement as a Prisma promise, for Prisma's batch `$transaction([...])` (it answers the rows changed). */
export function prismaStatement(query: Statement<unknown>) {
  const compiled = compiledOf(query);
  return db().$executeRawUnsafe(compiled.sql, ...compiled.parameters);
}
