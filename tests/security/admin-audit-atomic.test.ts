// Every admin operation writes its audit record in the same transaction as its change: when the audit
// record cannot be written, the change does not happen, and when the change fails part-way, no audit
// record (and no part of the change) remains. The database is made to refuse one audit action, or one
// table's insert, by a trigger of the test's own.
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { namedActor } from "@/lib/audit/actor";
import { createApiKey } from "@/lib/auth/create-api-key";
import { revokeApiKey } from "@/lib/auth/revoke-api-key";
import { rotateApiKey } from "@/lib/auth/rotate-api-key";
import { createOAuthClient } from "@/lib/auth/create-oauth-client";
import { revokeOAuthClient } from "@/lib/auth/revoke-oauth-client";
import { updatePartnerProfile } from "@/lib/partners/update-partner-profile";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { createPartner } from "@/lib/partners/create-partner";
import { rotateWebhookSecret } from "@/lib/partners/rotate-webhook-secret";
import { setPartnerOutboundCredential } from "@/lib/partners/set-partner-outbound-credential";
import { setPartnerSuspended } from "@/lib/partners/set-partner-suspended";
import { updatePartnerCallbackUrl } from "@/lib/partners/update-partner-callback-url";
import { addStore } from "@/lib/stores/add-store";
import { removeStore } from "@/lib/stores/remove-store";
import { createUser } from "@/lib/users/create-user";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

let url: string;
const actor = namedActor("atomic-test");

async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** From now on the database refuses audit records with this action (as a full disk or a lost connection would). */
const refuseAudit = (action: string) => sql("INSERT INTO test_refused VALUES ($1)", [`audit:${action}`]);
/** From now on the database refuses inserts into this table. */
const refuseInsert = (table: string) => sql("INSERT INTO test_refused VALUES ($1)", [`insert:${table}`]);

/** A snapshot of everything an admin operation may change. */
async function snapshot(): Promise<string> {
  const rows = await Promise.all([
    sql("SELECT * FROM partners ORDER BY id"),
    sql("SELECT * FROM api_keys ORDER BY id"),
    sql("SELECT * FROM oauth_clients ORDER BY id"),
    sql("SELECT * FROM stores ORDER BY id"),
    sql("SELECT id, email, role FROM users ORDER BY id"),
    sql("SELECT id, action FROM audit_events ORDER BY id"),
  ]);
  return JSON.stringify(rows.map((r) => r.rows));
}

beforeAll(async () => {
  url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_atomic");
  setEnv({ DATABASE_URL: url, ...TEST_SECRETS, CALLBACK_ALLOW_PRIVATE_NETWORKS: "true", LOG_LEVEL: "warn" });
  await sql(`
    CREATE TABLE test_refused (what text PRIMARY KEY);
    CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM test_refused WHERE what = 'insert:' || TG_TABLE_NAME) THEN
        RAISE EXCEPTION 'refused by the test: % %', TG_TABLE_NAME, TG_OP;
      END IF;
      IF TG_TABLE_NAME = 'audit_events' THEN
        IF EXISTS (SELECT 1 FROM test_refused WHERE what = 'audit:' || (to_jsonb(NEW) ->> 'action')) THEN
          RAISE EXCEPTION 'refused by the test: audit % %', to_jsonb(NEW) ->> 'action', TG_OP;
        END IF;
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER test_refuse BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION test_refuse();
    CREATE TRIGGER test_refuse BEFORE INSERT ON oauth_clients FOR EACH ROW EXECUTE FUNCTION test_refuse();
  `);
});

beforeEach(async () => {
  await sql("DELETE FROM test_refused");
});

afterAll(async () => {
  await disconnectDb();
});

const ATOMIC_STORE_NPI = "1003000126";

type Case = {
  action: string;
  run: (ids: { partnerId: string; keyId: string; clientId: string; storeId: string }) => Promise<unknown>;
};

const CASES: Case[] = [
  {
    action: "partner.created",
    run: () => createPartner({ name: "Refused", callbackUrl: "https://refused.example/cb", actor }),
  },
  {
    action: "partner.updated",
    run: ({ partnerId }) => updatePartnerProfile({ partnerId, change: { name: "Renamed" }, actor }),
  },
  { action: "partner.suspended", run: ({ partnerId }) => setPartnerSuspended({ partnerId, suspended: true, actor }) },
  {
    action: "partner.callback_url_changed",
    run: ({ partnerId }) => updatePartnerCallbackUrl({ partnerId, url: "https://moved.example/cb", actor }),
  },
  {
    action: "partner.webhook_secret_rotated",
    run: ({ partnerId }) => rotateWebhookSecret({ partnerId, overlapHours: 24, actor }),
  },
  {
    action: "partner.outbound_credential_set",
    run: ({ partnerId }) =>
      setPartnerOutboundCredential({ partnerId, header: { name: "Authorization", value: "Bearer t" }, actor }),
  },
  { action: "api_key.created", run: ({ partnerId }) => createApiKey({ partnerId, actor }) },
  { action: "api_key.rotated", run: ({ keyId }) => rotateApiKey({ keyId, overlapHours: 24, actor }) },
  { action: "api_key.revoked", run: ({ keyId }) => revokeApiKey({ keyId, actor }) },
  { action: "oauth_client.created", run: ({ partnerId }) => createOAuthClient({ partnerId, actor }) },
  { action: "oauth_client.revoked", run: ({ clientId }) => revokeOAuthClient({ clientId, actor }) },
  { action: "store.added", run: () => addStore({ name: "Refused Store", npi: "1234567893", actor }) },
  { action: "store.removed", run: ({ storeId }) => removeStore({ storeId, actor }) },
  {
    action: "user.created",
    run: () =>
      createUser({ email: "refused@pharmacy.test", password: "a-long-enough-password", role: "pharmacist", actor }),
  },
];

describe("admin operations and their audit records commit together", () => {
  let ids: { partnerId: string; keyId: string; clientId: string; storeId: string };

  beforeAll(async () => {
    const partner = await createPartner({ name: "Atomic Partner", callbackUrl: "https://atomic.example/cb", actor });
    const store = await addStore({ name: "Atomic Store", npi: ATOMIC_STORE_NPI, actor });
    ids = { partnerId: partner.partnerId, keyId: partner.keyId, clientId: partner.clientId, storeId: store.storeId };
  });

  for (const c of CASES) {
    it(`${c.action}: when its audit record cannot be written, nothing changes`, async () => {
      const before = await snapshot();
      await refuseAudit(c.action);
      await expect(c.run(ids)).rejects.toThrow(/refused by the test/);
      expect(await snapshot()).toBe(before);
    });
  }

  it("partner.created: a change that fails part-way (its OAuth client) leaves no partner, no key and no audit record", async () => {
    const before = await snapshot();
    await refuseInsert("oauth_clients");
    await expect(createPartner({ name: "Half Made", callbackUrl: "https://half.example/cb", actor })).rejects.toThrow(
      /refused by the test/,
    );
    expect(await snapshot()).toBe(before);
  });

  it("each operation, when it succeeds, leaves exactly its audit record", async () => {
    const count = () => db().auditEvent.count();
    let n = await count();
    for (const c of CASES) {
      await c.run(ids);
      const now = await count();
      expect(now - n, c.action).toBeGreaterThanOrEqual(1);
      expect(await db().auditEvent.count({ where: { action: c.action } }), c.action).toBeGreaterThanOrEqual(1);
      n = now;
    }
  });

  it("a callback URL change audits the URL without its query string, which may carry a token", async () => {
    await updatePartnerCallbackUrl({
      partnerId: ids.partnerId,
      url: "https://acme.example/hooks?token=s3cr3t-in-query",
      actor,
    });
    const partner = await createPartner({
      name: "Query Partner",
      callbackUrl: "https://acme.example/new?key=an0ther-s3cret",
      actor,
    });
    const records = await db().auditEvent.findMany({
      where: { action: { in: ["partner.callback_url_changed", "partner.created"] } },
      orderBy: { id: "desc" },
      take: 2,
    });
    const text = JSON.stringify(records.map((r) => r.details));
    expect(text).not.toContain("s3cr3t-in-query");
    expect(text).not.toContain("an0ther-s3cret");
    expect(records.find((r) => r.action === "partner.created")!.details).toMatchObject({
      partnerId: partner.partnerId,
      callbackUrl: "https://acme.example/new",
      callbackUrlQueryOmitted: true,
    });
    expect(records.find((r) => r.action === "partner.callback_url_changed")!.details).toMatchObject({
      callbackUrl: "https://acme.example/hooks",
      callbackUrlQueryOmitted: true,
    });
  });
});
