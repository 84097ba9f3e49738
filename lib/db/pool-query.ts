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
import { createHash } from "node:crypto";
import type { Compilable, CompiledQuery } from "kysely";
import pg from "pg";
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

/** How poolQuery sends a statement. */
export type PoolQueryOptions = {
  /**
   * For a statement whose text never changes (a compiledStatement, lib/db/compiled-statement.ts): each
   * connection then parses and plans it once and afterwards only binds values, which the per-request statements
   * (the intake's insert, its rate-limit lease) would otherwise pay for every time in PostgreSQL's CPU, on the
   * same cores as the server. Named by its text, as a pool transaction's statements are (preparedStatement).
   */
  prepared?: boolean;
};

/** One parameterised statement; a Kysely one returns its typed rows. */
export async function poolQuery<R>(statement: Statement<R>, options?: PoolQueryOptions): Promise<R[]>;
export async function poolQuery<T extends pg.QueryResultRow>(
  statement: Prisma.Sql,
  options?: PoolQueryOptions,
): Promise<T[]>;
export async function poolQuery(
  statement: Prisma.Sql | Statement<unknown>,
  options?: PoolQueryOptions,
): Promise<unknown[]> {
  if (options?.prepared) return (await dbPool().query(preparedStatement(statement))).rows;
  const { text, values } = poolStatement(statement);
  return (await dbPool().query(text, values)).rows;
}

/** A prepared statement's name, from its text: the same text gets the same name on every connection. */
const names = new Map<string, string>(); // the few statement texts the code has, each hashed once
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `rx_${createHash("sha256").update(text).digest("base64url").slice(0, 24)}`));
  return name;
}

/** A statement as pg sends it prepared: parsed and planned once per connection, then only bound. */
export function preparedStatement(statement: Prisma.Sql | Statement<unknown>): pg.QueryConfig {
  const { text, values } = poolStatement(statement);
  return { name: statementName(text), text, values };
}

// SQLSTATEs after which the session is gone or going: connection_exception (class 08), and the server shutting
// down or refusing (admin_shutdown, crash_shutdown, cannot_connect_now, idle_session_timeout).
const CONNECTION_CODES = /^(08...|57P0[1-3]|57P05)$/;

/**
 * True when `err` is PostgreSQL's answer to one statement (a unique or check violation, a bad value, a lock
 * timeout) and leaves the session as it was: the connection can serve the next statement. False for anything
 * else, a socket's error, a FATAL one or a thrown non-database error included.
 */
export function isStatementError(err: unknown): boolean {
  if (!(err instanceof pg.DatabaseError)) return false;
  if (err.severity === "FATAL" || err.severity === "PANIC") return false;
  return typeof err.code === "string" && !CONNECTION_CODES.test(err.code);
}

/**
 * What to hand client.release() after `err`: nothing (the connection goes back to the pool) when PostgreSQL
 * refused a statement and the session is outside any transaction, or back outside after a ROLLBACK; the error
 * (the pool closes the connection) otherwise. The transaction status is the session's last ReadyForQuery's,
 * which pg reads after the statement's error: a failed statement that opened the transaction itself (BEGIN in
 * the same simple-query text) would still read as idle. The work here sends no such text.
 */
async function releaseErrorFor(client: pg.PoolClient, err: unknown): Promise<Error | undefined> {
  const broken = err instanceof Error ? err : new Error(String(err));
  if (!isStatementError(err)) return broken;
  if (client.getTransactionStatus() === "I") return undefined;
  return client.query("ROLLBACK").then(
    () => undefined,
    () => broken,
  );
}

/**
 * One pooled connection for work that must stay on it (statements that rely on what the connection holds:
 * lib/audit/owned-chain.ts). A statement PostgreSQL refused (a unique violation, say) leaves the connection,
 * and what it holds, for the next work; any other failure drops it rather than return it to the pool, so
 * nothing it held outlives a state this process no longer knows.
 */
export async function withPoolClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await dbPool().connect();
  let result: T;
  try {
    result = await work(client);
  } catch (err) {
    client.release(await releaseErrorFor(client, err));
    throw err;
  }
  client.release();
  return result;
}
