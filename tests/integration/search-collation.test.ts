// The queue's name and drug search reads its indexes on a database with a linguistic collation too, not only on the
// C collation of the service's own embedded databases: an operator's DATABASE_URL server is often en-US.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { databaseUrl, deployMigrations } from "@/lib/db/migrate";
import { sqlDb } from "@/lib/db/kysely";
import { searchCondition } from "@/lib/transfers/queue";
import { classifySearch } from "@/lib/transfers/queue";

const admin = inject("adminDatabaseUrl");
const name = `rx_icu_${randomBytes(4).toString("hex")}`;
let client: pg.Client | null = null;
let icu = true;

beforeAll(async () => {
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  try {
    await adminClient.query(`CREATE DATABASE ${name} LOCALE_PROVIDER icu ICU_LOCALE 'en-US' TEMPLATE template0`);
  } catch (err) {
    // A server built without ICU cannot have such a database; the test then says so by skipping.
    if (!/icu|locale/i.test(String(err))) throw err;
    icu = false;
  } finally {
    await adminClient.end();
  }
  if (!icu) return;
  const url = databaseUrl(admin, name);
  await deployMigrations(url);
  client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `INSERT INTO partners (id, name, npis, callback_url, webhook_secret) VALUES ('prt_icu', 'ICU', '{}', 'https://s.example/cb', 'sealed')`,
  );
  await client.query(`
    INSERT INTO transfers (id, partner_id, request_id, content_hash, status, patient_first_name, patient_last_name,
      patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
      has_allergies, drug_schedule, received_at, request, response, response_id)
    SELECT 'trf_i' || g, 'prt_icu', 'req' || g, 'h', 'CONFIRMED', 'First', 'Last',
      md5(g::text) || ' first', date '1950-01-01', '1843501234', 'S', '1245319599', 'RX' || g, 'D', '1 mg',
      false, 'none', now(), '{}'::jsonb, '{}'::jsonb, 'rsp' || g
    FROM generate_series(1, 50000) g`);
  await client.query("ANALYZE transfers");
}, 180_000);

afterAll(async () => {
  await client?.end();
  if (!icu) return;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await adminClient.end();
});

describe("name search on an en-US (ICU) database", () => {
  it("reads the patient_search index for a name prefix", async (ctx) => {
    if (!icu) ctx.skip();
    const search = classifySearch("ab");
    expect(search.kind).toBe("nameOrRxNumber");
    // The condition the queue sends, with the same parameters (compiled here, run on this database).
    const statement = sqlDb()
      .selectFrom("transfers as t")
      .select("t.id")
      .where((eb) => searchCondition(eb, search))
      .compile();
    const plan = await client!.query<{ "QUERY PLAN": string }>(`EXPLAIN (COSTS OFF) ${statement.sql}`, [
      ...statement.parameters,
    ]);
    const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toContain("transfers_patient_search_status_received_at_id_idx");
    // The drug name (and the name typed first-name first) are prefixes on indexes too, never a table scan.
    expect(text).toContain("transfers_drug_search_idx");
    expect(text).not.toMatch(/Seq Scan on transfers/);
  });
});
