// lib/db/pool-transaction.ts, which carries the decision's two statements, against the integration database:
// all or nothing, bounded like Prisma's transactions were, statements prepared once per connection by their text.
import { afterAll, describe, expect, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import { poolQuery } from "@/lib/db/pool-query";
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
