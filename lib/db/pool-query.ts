// A few hot statements go straight to the pg pool under the one Prisma client (lib/db/prisma.ts: same pool,
// same connections, same /metrics counts) instead of Prisma's $queryRaw: the intake's key-checked insert
// (lib/transfers/intake/receive-transfer.ts) and the callback worker's batch claim and batch successes
// (lib/callbacks/claim-due-callbacks.ts, record-callback-successes.ts).
//
// Why: even a raw statement passes through Prisma 7's WASM query compiler, its tracing and its result
// mapping, a large share of the intake's and the batching worker's CPU for one or two statements each
// (bench/HISTORY.md). A statement is built with Kysely (lib/db/kysely.ts); Prisma.sql is still taken, for
// tests and benchmarks that send text of their own. Each is a single autocommit statement; every other query
// stays on Prisma. Errors are plain pg errors, which lib/db/errors.ts recognises as well.
import type { Compilable, CompiledQuery } from "kysely";
import type pg from "pg";
import type { Prisma } from "@/generated/prisma/client";
import { dbPool } from "@/lib/db/prisma";

/** A statement's text and values: the values are sent as $n, never spliced into the text. */
export type PoolStatement = { text: string; values: unknown[] };

/** What poolQuery and a pool transaction run: a Kysely statement, built or compiled once (lib/db/compiled-statement.ts). */
export type Statement<R> = Compilable<R> | CompiledQuery<R>;

/** A statement built with Kysely (typed: lib/db/kysely.ts), compiled, or written with Prisma.sql, as text and values. */
export function poolStatement(statement: Prisma.Sql | Statement<unknown>): PoolStatement {
  if ("compile" in statement) {
    const { sql, parameters } = statement.compile();
    return { text: sql, values: parameters as unknown[] };
  }
  if ("parameters" in statement) return { text: statement.sql, values: statement.parameters as unknown[] };
  return { text: statement.text, values: statement.values };
}

/**
 * One parameterised statement; a Kysely one returns its typed rows. `preparedAs` names a statement whose text
 * never changes: each connection then parses and plans it once and afterwards only binds values, which the
 * per-request statements (the intake's insert, its rate-limit lease) would otherwise pay for every time in
 * PostgreSQL's CPU, on the same cores as the server.
 */
export async function poolQuery<R>(statement: Statement<R>, preparedAs?: string): Promise<R[]>;
export async function poolQuery<T extends pg.QueryResultRow>(statement: Prisma.Sql, preparedAs?: string): Promise<T[]>;
export async function poolQuery(statement: Prisma.Sql | Statement<unknown>, preparedAs?: string): Promise<unknown[]> {
  const { text, values } = poolStatement(statement);
  const { rows } = preparedAs
    ? await dbPool().query({ name: preparedAs, text, values })
    : await dbPool().query(text, values);
  return rows;
}
