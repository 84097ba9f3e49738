// lib/db/pool-transaction.ts, which carries the decision's two statements, against the integration database:
// all or nothing, bounded like Prisma's transactions were, statements prepared once per connection by their text.
// And which failures cost a pooled connection (lib/db/pool-query.ts, withPoolClient): a statement PostgreSQL
// refused leaves the session to serve the next work, a terminated session is dropped and replaced.
import type pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import { poolQuery, withPoolClient } from "@/lib/db/pool-query";
import { dbPool } from "@/lib/db/prisma";
import { poolTransaction } from "@/lib/db/pool-transaction";
import { sqlDb } from "@/lib/db/kysely";
import { sql } from "kysely";
import { connectTestEnvironment } from "@/tests/support/integration";

connectTestEnvironment();

const marker = () => `pool-tx-${Date.now()}-${Math.random().toString(36).slice(2)}`;

// A scratch table of this file's own; the schema's tables carry constraints these checks do not need.
const scratch = async () =>
  poolQuery(Prisma.sql`CREATE TABLE IF NOT EXISTS pool_transaction_test (note text PRIMARY KEY)`);

afterAll(async () => {
  await poolQuery(Prisma.sql`DROP TABLE IF EXISTS pool_transaction_test`);
});

const count = async (note: string) =>
  (
    await poolQuery<{ n: number }>(
      Prisma.sql`SELECT count(*)::int AS n FROM pool_transaction_test WHERE note = ${note}`,
    )
  )[0]!.n;

const backendPid = async (client: pg.PoolClient) =>
  (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;

/** The connection the next work on the pool gets (the pool hands out the one released last), as it stands. */
const nextConnection = () =>
  withPoolClient(async (client) => ({
    client,
    pid: await backendPid(client),
    status: client.getTransactionStatus(),
  }));

describe("poolTransaction", () => {
  it("commits what the work wrote, and returns the work's result", async () => {
    await scratch();
    const note = marker();
    const result = await poolTransaction(async (tx) => {
      await tx.query(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${note})`);
      return "done";
    });
    expect(result).toBe("done");
    expect(await count(note)).toBe(1);
  });

  it("rolls everything back when the work throws, and rethrows the work's own error", async () => {
    await scratch();
    const note = marker();
    const failure = new Error("refused by a rule after the first write");
    await expect(
      poolTransaction(async (tx) => {
        await tx.query(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${note})`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await count(note)).toBe(0);
  });

  it("rolls back on a failed statement (a unique violation stays a pg error the callers recognise)", async () => {
    await scratch();
    const note = marker();
    await poolQuery(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${note})`);
    const other = marker();
    const error: unknown = await poolTransaction(async (tx) => {
      await tx.query(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${other})`);
      await tx.query(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${note})`);
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505" });
    expect(await count(other)).toBe(0);
    // The pool still works: the connection was rolled back before it went back.
    expect(await count(note)).toBe(1);
  });

  it("keeps the connection after a refused statement, rolled back: the next work gets the same session, idle", async () => {
    await scratch();
    const note = marker();
    await poolQuery(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${note})`);
    let pid = 0;
    const error: unknown = await poolTransaction(async (tx) => {
      pid = (await tx.query<{ pid: number }>(Prisma.sql`SELECT pg_backend_pid() AS pid`))[0]!.pid;
      await tx.query(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${note})`);
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505" });
    expect(await nextConnection()).toMatchObject({ pid, status: "I" });
  });

  it("bounds each statement at 20 s and prepares a statement once per connection, named by its text", async () => {
    const seen = await poolTransaction(async (tx) => {
      const [timeout] = await tx.query<{ statement_timeout: string }>(Prisma.sql`SHOW statement_timeout`);
      for (let i = 0; i < 3; i++) await tx.query(Prisma.sql`SELECT ${i}::int AS i`);
      const prepared = await tx.query<{ statement: string }>(
        Prisma.sql`SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int AS i%'`,
      );
      return { timeout: timeout!.statement_timeout, prepared: prepared.length };
    });
    expect(seen).toEqual({ timeout: "20s", prepared: 1 });
    // Outside the transaction the server's own bound applies again.
    expect(
      (await poolQuery<{ statement_timeout: string }>(Prisma.sql`SHOW statement_timeout`))[0]!.statement_timeout,
    ).not.toBe("20s");
  });

  it("queryThenCommit: commits with the last statement, or rolls back all of it when that statement fails", async () => {
    await scratch();
    const first = marker();
    const last = marker();
    const rows = await poolTransaction(async (tx) => {
      await tx.query(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${first})`);
      return tx.queryThenCommit(
        sqlDb()
          .selectNoFrom(sql<string>`${last}::text`.as("note"))
          .$castTo<{ note: string }>(),
      );
    });
    expect(rows).toEqual([{ note: last }]);
    expect(await count(first)).toBe(1);

    const other = marker();
    const error: unknown = await poolTransaction(async (tx) => {
      await tx.query(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${other})`);
      // A last statement that fails (its COMMIT already queued behind it).
      return tx.queryThenCommit(sqlDb().selectNoFrom(sql<number>`${"not a number"}::int`.as("n")));
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "22P02" });
    expect(await count(other)).toBe(0);
    // Nothing was left open on the connection: the next transaction on the pool commits as usual.
    const after = marker();
    await poolTransaction((tx) => tx.query(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${after})`));
    expect(await count(after)).toBe(1);
  });
});

describe("withPoolClient", () => {
  it("keeps the connection after a statement PostgreSQL refused: the same session serves the next statement", async () => {
    await scratch();
    const note = marker();
    await poolQuery(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${note})`);
    const total = dbPool().totalCount;
    let failed: { client: pg.PoolClient; pid: number } | undefined;
    const error: unknown = await withPoolClient(async (client) => {
      failed = { client, pid: await backendPid(client) };
      await client.query("INSERT INTO pool_transaction_test (note) VALUES ($1)", [note]);
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505" });
    const next = await nextConnection();
    expect(next.client).toBe(failed!.client);
    expect(next).toMatchObject({ pid: failed!.pid, status: "I" });
    expect(dbPool().totalCount).toBe(total);
  });

  it("rolls back a transaction the work left open on a refused statement, and keeps the connection", async () => {
    await scratch();
    const note = marker();
    const first = marker();
    await poolQuery(Prisma.sql`INSERT INTO pool_transaction_test (note) VALUES (${note})`);
    let pid = 0;
    const error: unknown = await withPoolClient(async (client) => {
      pid = await backendPid(client);
      await client.query("BEGIN");
      await client.query("INSERT INTO pool_transaction_test (note) VALUES ($1)", [first]);
      await client.query("INSERT INTO pool_transaction_test (note) VALUES ($1)", [note]);
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "23505" });
    expect(await nextConnection()).toMatchObject({ pid, status: "I" });
    expect(await count(first)).toBe(0);
  });

  it("drops a connection whose session was terminated; the pool serves the next work on another", async () => {
    let pid = 0;
    let total = 0;
    let failedClient: pg.PoolClient | undefined;
    const error: unknown = await withPoolClient(async (client) => {
      failedClient = client;
      pid = await backendPid(client);
      // Terminated while a statement runs on it, from another connection of the pool.
      const sleeping = client.query("SELECT pg_sleep(30)");
      sleeping.catch(() => undefined);
      const [ended] = await poolQuery<{ ok: boolean }>(Prisma.sql`SELECT pg_terminate_backend(${pid}::int) AS ok`);
      expect(ended!.ok).toBe(true);
      total = dbPool().totalCount;
      await sleeping;
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "57P01" });
    expect(dbPool().totalCount).toBe(total - 1);
    const next = await nextConnection();
    expect(next.client).not.toBe(failedClient);
    expect(next.pid).not.toBe(pid);
    expect(next.status).toBe("I");
  });

  it("drops the connection when the work itself fails (not a statement's error): nothing it held is reused", async () => {
    let failedClient: pg.PoolClient | undefined;
    const failure = new Error("the work's own failure");
    await expect(
      withPoolClient(async (client) => {
        failedClient = client;
        await backendPid(client);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await nextConnection()).client).not.toBe(failedClient);
  });
});
