// A transaction on the pg pool under the one Prisma client (lib/db/prisma.ts), for the decision's two
// statements (lib/transfers/decision/decide-transfer.ts), the dashboard's hottest write: BEGIN, the statements and
// COMMIT on one pooled connection, without Prisma's interactive-transaction machinery and per-statement
// query path (a large share of an approving process's CPU: bench/HISTORY.md), and each statement prepared once
// per connection, so PostgreSQL parses and plans it once. Any failure rolls back; errors are plain pg errors
// (lib/db/errors.ts recognises them). Why poolQuery's statements skip Prisma: lib/db/pool-query.ts.
import type pg from "pg";
import type { Prisma } from "@/generated/prisma/client";
import { preparedStatement, type Statement } from "@/lib/db/pool-query";
import { dbPool } from "@/lib/db/prisma";

export type PoolTransaction = {
  /** One parameterised statement (Kysely's or Prisma.sql: values sent as $n, never spliced), prepared on first use. */
  query<R>(statement: Statement<R>): Promise<R[]>;
  query<T extends pg.QueryResultRow>(statement: Prisma.Sql): Promise<T[]>;
  /**
   * The transaction's last statement with its COMMIT queued right behind it, so the connection sends the COMMIT
   * without waiting for this process's event loop: its rows once committed. If the statement fails, the COMMIT
   * rolls back (PostgreSQL ends a failed transaction that way) and the statement's error is thrown.
   */
  queryThenCommit<R>(statement: Statement<R>): Promise<R[]>;
};

const STATEMENT_TIMEOUT_MS = 20_000;

export async function poolTransaction<T>(work: (tx: PoolTransaction) => Promise<T>): Promise<T> {
  const client = await dbPool().connect();
  let broken: Error | undefined;
  let ended = false;
  try {
    // Bounded as Prisma's interactive transactions were (20 s): a statement stuck on a lock fails instead.
    // Queued, not awaited: the connection sends the first statement as soon as BEGIN completes.
    let begun: Promise<unknown> | null = client.query(`BEGIN; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
    begun.catch(() => undefined); // awaited below, before any statement's result is used
    const send = (statement: Prisma.Sql | Statement<unknown>) => client.query(preparedStatement(statement));
    const afterBegin = async () => {
      if (begun) {
        const b = begun;
        begun = null;
        await b;
      }
    };
    const query = async (statement: Prisma.Sql | Statement<unknown>): Promise<unknown[]> => {
      const sent = send(statement);
      sent.catch(() => undefined);
      await afterBegin();
      return (await sent).rows;
    };
    const queryThenCommit = async (statement: Statement<unknown>): Promise<unknown[]> => {
      const sent = send(statement);
      const commit = client.query("COMMIT");
      sent.catch(() => undefined);
      commit.catch(() => undefined);
      await afterBegin();
      try {
        return (await sent).rows;
      } finally {
        ended = true;
        await commit;
      }
    };
    const result = await work({ query, queryThenCommit } as PoolTransaction);
    await afterBegin();
    if (!ended) await client.query("COMMIT");
    return result;
  } catch (err) {
    // A connection that cannot even roll back is dropped from the pool, not reused.
    if (!ended) {
      await client.query("ROLLBACK").catch((e: unknown) => (broken = e instanceof Error ? e : new Error(String(e))));
    }
    throw err;
  } finally {
    client.release(broken);
  }
}
