// The intake's insert, its hottest statement, is prepared on the connection that runs it (named by the hash of
// its text: lib/db/pool-query.ts), so PostgreSQL parses and plans it once per connection, not per request.
import { describe, expect, it } from "vitest";
import { findSenderByApiKey, knownApiKey } from "@/lib/auth/find-sender-by-api-key";
import { withPoolClient } from "@/lib/db/pool-query";
import { receiveTransfer, receiveTransferWithKeyCheck } from "@/lib/transfers/intake";
import { createTestPartner, freshRequest } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";

connectTestEnvironment();

type Prepared = { name: string; statement: string; runs: number };

/** The inserts prepared on the connection the pool hands out next: the one released last. */
const preparedInserts = () =>
  withPoolClient(async (client) => {
    const { rows } = await client.query<Prepared>(
      `SELECT name, statement, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements
        WHERE statement LIKE '%insert into "transfers"%' ORDER BY name`,
    );
    return rows;
  });

describe("the intake's insert", () => {
  it("is prepared once per connection under its text's hash, the key-checked one and the plain one", async () => {
    const partner = await createTestPartner("Prepared intake");
    expect(await findSenderByApiKey(partner.apiKey)).not.toBeNull();
    const key = knownApiKey(partner.apiKey)!;
    for (let i = 0; i < 3; i++)
      expect(await receiveTransferWithKeyCheck({ key, request: freshRequest() })).not.toBeNull();
    const keyChecked = await preparedInserts();
    expect(keyChecked).toHaveLength(1);
    expect(keyChecked[0]!.name).toMatch(/^rx_[\w-]{24}$/);
    expect(keyChecked[0]!.statement).toMatch(/valid_key/);
    expect(keyChecked[0]!.runs).toBeGreaterThanOrEqual(3);

    for (let i = 0; i < 2; i++)
      expect(await receiveTransfer(partner.partnerId, freshRequest())).toMatchObject({ kind: "created" });
    const both = await preparedInserts();
    expect(both).toHaveLength(2);
    const plain = both.find((p) => p.name !== keyChecked[0]!.name)!;
    expect(plain.name).toMatch(/^rx_[\w-]{24}$/);
    expect(plain.statement).not.toMatch(/valid_key/);
    expect(plain.runs).toBeGreaterThanOrEqual(2);
  });
});
