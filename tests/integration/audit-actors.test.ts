// The audit module is the one place an Actor becomes a record's user_id, actor and client_address: an event
// recorded as each kind of actor stores exactly the fields that the call sites used to write by hand, and the
// chain over them still verifies.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminActor, CLI_ACTOR, namedActor, SYSTEM_ACTOR, userActor, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

let databaseUrl: string;
beforeAll(async () => {
  await disconnectDb();
  databaseUrl = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_audit_actors");
  setEnv({ DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "warn" });
});
afterAll(() => disconnectDb());

type Stored = { user_id: string | null; actor: string; client_address: string | null; transfer_id: string | null };

async function stored(action: string): Promise<Stored> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Stored>(
      "SELECT user_id, actor, client_address, transfer_id FROM audit_events WHERE action = $1",
      [action],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!;
  } finally {
    await client.end();
  }
}

const pharmacist = { id: "usr_actor_test", email: "pharmacist@example.test" };

const cases: { kind: string; actor: Actor; expected: Omit<Stored, "transfer_id"> }[] = [
  {
    kind: "user",
    actor: userActor(pharmacist, "198.51.100.7"),
    expected: { user_id: pharmacist.id, actor: pharmacist.email, client_address: "198.51.100.7" },
  },
  {
    kind: "user_without_address",
    actor: userActor(pharmacist, undefined),
    expected: { user_id: pharmacist.id, actor: pharmacist.email, client_address: null },
  },
  {
    kind: "admin",
    actor: adminActor({ user: { ...pharmacist, email: "admin@example.test" }, clientAddress: "203.0.113.9" }),
    expected: { user_id: pharmacist.id, actor: "admin@example.test", client_address: "203.0.113.9" },
  },
  { kind: "cli", actor: CLI_ACTOR, expected: { user_id: null, actor: "cli", client_address: null } },
  { kind: "system", actor: SYSTEM_ACTOR, expected: { user_id: null, actor: "system", client_address: null } },
  {
    kind: "unknown",
    actor: namedActor("unknown", "192.0.2.44"),
    expected: { user_id: null, actor: "unknown", client_address: "192.0.2.44" },
  },
  {
    kind: "integration",
    actor: namedActor("integration:key_abc"),
    expected: { user_id: null, actor: "integration:key_abc", client_address: null },
  },
];

describe("audit records by actor", () => {
  it.each(cases)("stores user_id, actor and client_address of a $kind actor", async ({ kind, actor, expected }) => {
    await recordAuditEvent({ actor, action: `test.actor_${kind}`, transferId: `trf_${kind}` });
    expect(await stored(`test.actor_${kind}`)).toEqual({ ...expected, transfer_id: `trf_${kind}` });
  });

  it("keeps the chain verifiable over records of every kind", async () => {
    const report = await verifyAuditChain();
    expect(report).toMatchObject({ ok: true, records: cases.length });
  });
});
