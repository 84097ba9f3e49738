// The patient history over a skewed table (in a database of its own): one patient holds a third of the
// transfers, as a chronic patient or a sender reusing one patient id would. The statistics that skew gives the
// planner made an OR of the two match rules under ORDER BY … LIMIT walk transfers by received_at through the
// whole table for a patient with a handful of transfers, and read every one of a common patient's transfers to
// show 50. Checked here: the rows and their order, and from the plan of the statement getPatientHistory sends
// (EXPLAIN ANALYZE, FORMAT JSON) that it reads each rule's own index and only about a page of rows from
// transfers, for the rare patient and for the common one. Rows read, not time: the plan's behaviour.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { onSqlQuery } from "@/lib/db/kysely";
import { db, disconnectDb, enableQueryEvents } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { getPatientHistory, HISTORY_LIMIT } from "@/lib/transfers/review";
import { createMigratedDatabase } from "@/tests/support/database";
import { nodesOf, transferRowsRead, type PlanNode } from "@/tests/support/plan-nodes";
import { TEST_SECRETS } from "@/tests/support/server";

const ROWS = 150_000;
const COMMON_PATIENT_ROWS = 50_000;
const actor = { id: "usr_skew", email: "skew@test.example", name: "Skew Test", role: "pharmacist" as const };

type Captured = { query: string; params: string };
let captured: Captured[] = [];
let databaseUrl: string;

/** The rare patient: 8 transfers early in the table's year (so a walk by received_at from the newest end
 * passes nearly every row before it finds them), matched in each way the history knows, and two that are not. */
const RARE = [
  // id, last name as sent, date of birth, partner, sender's patient id, days ago
  ["trf_rare1", "Okafor", "1971-02-03", "prt_skew", "rare-1", 300],
  ["trf_rare2", "OKAFOR", "1971-02-03", "prt_skew", "rare-2", 310],
  ["trf_rare3", "Okafor", "1971-02-03", "prt_skew", "rare-1", 320],
  ["trf_rare4", "Okafor-", "1971-02-03", "prt_skew", "rare-3", 330],
  ["trf_rare5", "Okafore", "1980-01-01", "prt_skew", "rare-1", 340], // by the sender's id only
  ["trf_rare6", "Okafor", "1971-02-03", "prt_other", "rare-9", 350], // by name + DOB, another sender
  ["trf_rare7", "Okafor", "1971-02-03", "prt_skew", "rare-4", 360],
  ["trf_rare8", "Okafor", "1971-02-03", "prt_skew", "rare-5", 364], // the one reviewed: the oldest
  ["trf_notrare1", "Okafor", "1971-02-04", "prt_skew", "rare-6", 305], // another date of birth
  ["trf_notrare2", "Nwosu", "1990-09-09", "prt_other", "rare-1", 315], // the same id from another sender
] as const;

beforeAll(async () => {
  databaseUrl = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_history_skew");
  await disconnectDb();
  enableQueryEvents();
  setEnv({ DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "warn" });
  await db().$executeRaw`
    INSERT INTO partners (id, name, npis, callback_url, webhook_secret) VALUES
      ('prt_skew', 'Skew Sender', '{}', 'https://sender.example/cb', 'sealed'),
      ('prt_other', 'Other Sender', '{}', 'https://other.example/cb', 'sealed')`;
  // One a minute over the last ~100 days: every 5 share a sender's patient id; names and dates of birth vary.
  // Then the common patient: one name, date of birth and sender's id, over the whole year.
  const columns = `id, partner_id, request_id, content_hash, status, patient_first_name, patient_last_name,
      patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
      has_allergies, drug_schedule, drug_substance_key, patient_reference_id, received_at, request, response, response_id`;
  await db().$executeRawUnsafe(`
    INSERT INTO transfers (${columns})
    SELECT 'trf_k' || lpad(g::text, 7, '0'), 'prt_skew', 'req' || g, 'h',
      (CASE WHEN g % 50 = 0 THEN 'RECEIVED' WHEN g % 7 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END)::"TransferStatus",
      'First' || (g % 20), 'Last' || (g % 3000), 'last' || (g % 3000) || ' first' || (g % 20),
      date '1940-01-01' + (g * 7919 % 25000), '1843501234', 'Skew Sender', '1245319599', 'RX' || g, 'Drug', '10 mg',
      false, 'none', 'drug', 'pat' || (g / 5), now() - make_interval(mins => g), '{}'::jsonb, '{}'::jsonb, 'rsp' || g
    FROM generate_series(1, ${ROWS - COMMON_PATIENT_ROWS}) g`);
  await db().$executeRawUnsafe(`
    INSERT INTO transfers (${columns})
    SELECT 'trf_c' || lpad(g::text, 7, '0'), 'prt_skew', 'common' || g, 'h',
      (CASE WHEN g % 50 = 0 THEN 'RECEIVED' ELSE 'CONFIRMED' END)::"TransferStatus",
      'Maria', 'Alvarez', 'alvarez maria', date '1958-03-14', '1843501234', 'Skew Sender', '1245319599',
      'RXC' || g, 'Atorvastatin', '20 mg', false, 'none', 'atorvastatin', 'common',
      now() - make_interval(secs => g * 600), '{}'::jsonb, '{}'::jsonb, 'rspc' || g
    FROM generate_series(1, ${COMMON_PATIENT_ROWS}) g`);
  for (const [id, last, dob, partner, patientId, daysAgo] of RARE) {
    await db().$executeRaw`
      INSERT INTO transfers (id, partner_id, request_id, content_hash, status, patient_first_name, patient_last_name,
        patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
        has_allergies, drug_schedule, drug_substance_key, patient_reference_id, received_at, request, response, response_id)
      VALUES (${id}, ${partner}, ${id}, 'h', 'RECEIVED', 'Ngozi', ${last}, lower(${last}) || ' ngozi', ${dob}::date,
        '1843501234', 'Skew Sender', '1245319599', ${id}, 'Lisinopril', '10 mg', false, 'none', 'lisinopril',
        ${patientId}, now() - make_interval(days => ${daysAgo}), '{}'::jsonb, '{}'::jsonb, ${id})`;
  }
  await db().$executeRaw`VACUUM (ANALYZE) transfers`;
  const client = db() as unknown as { $on(event: "query", cb: (e: Captured) => void): void };
  client.$on("query", (e) => captured.push({ query: e.query, params: e.params }));
  onSqlQuery((e) => captured.push({ query: e.sql, params: JSON.stringify(e.parameters) }));
}, 600_000);

afterAll(async () => {
  await disconnectDb();
});

/** The history's rows statement as getPatientHistory sent it, explained with its own parameters. */
async function historyPlan(referenceID: string): Promise<{ nodes: PlanNode[]; text: string }> {
  captured = [];
  await getPatientHistory({ referenceID, actor, clientAddress: null });
  const sent = captured.find((q) => /\bpartners\b/.test(q.query) && /\bORDER BY\b/i.test(q.query));
  expect(sent, captured.map((q) => q.query).join("\n---\n")).toBeDefined();
  const pg = await import("pg");
  const client = new pg.default.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const answer = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sent!.query}`,
      JSON.parse(sent!.params) as unknown[],
    );
    const plan = answer.rows[0]!["QUERY PLAN"][0].Plan;
    return { nodes: nodesOf(plan), text: JSON.stringify(plan, null, 1) };
  } finally {
    await client.end();
  }
}

function expectNoWalkByReceivedAt(nodes: PlanNode[], text: string): void {
  for (const n of nodes) {
    expect(["transfers_received_at_id_idx", "transfers_status_received_at_id_idx"], text).not.toContain(
      n["Index Name"],
    );
    if (n["Relation Name"] === "transfers") expect(n["Node Type"], text).not.toBe("Seq Scan");
    expect(n["Rows Removed by Join Filter"] ?? 0, text).toBeLessThan(HISTORY_LIMIT);
  }
}

describe(`the patient history over ${ROWS.toLocaleString()} transfers, ${COMMON_PATIENT_ROWS.toLocaleString()} of one patient`, () => {
  it("lists a rare patient's transfers by both rules, newest first, and nothing else", async () => {
    const h = await getPatientHistory({ referenceID: "trf_rare8", actor, clientAddress: null });
    expect(h.entries.map((e) => [e.referenceID, e.matchedBy, e.dobDiffers])).toEqual([
      ["trf_rare1", ["name-dob"], false],
      ["trf_rare2", ["name-dob"], false],
      ["trf_rare3", ["name-dob"], false],
      ["trf_rare4", ["name-dob"], false],
      ["trf_rare6", ["name-dob"], false],
      ["trf_rare7", ["name-dob"], false],
    ]);
    expect(h.hasMore).toBe(false);
    const byId = await getPatientHistory({ referenceID: "trf_rare3", actor, clientAddress: null });
    expect(byId.entries.map((e) => [e.referenceID, e.matchedBy, e.dobDiffers])).toEqual([
      ["trf_rare1", ["patient-id", "name-dob"], false],
      ["trf_rare2", ["name-dob"], false],
      ["trf_rare4", ["name-dob"], false],
      ["trf_rare5", ["patient-id"], true],
      ["trf_rare6", ["name-dob"], false],
      ["trf_rare7", ["name-dob"], false],
      ["trf_rare8", ["name-dob"], false],
    ]);
    // Queue order is oldest first: after trf_rare3 (320 days ago) the next pending one is trf_rare2 (310).
    expect(byId.nextForPatient).toMatchObject({ referenceID: "trf_rare2", pendingCount: 7 });
  });

  it("lists the common patient's newest transfers, a page of them, in order", async () => {
    const reviewed = "trf_c0025000";
    const h = await getPatientHistory({ referenceID: reviewed, actor, clientAddress: null });
    const expected = await db().$queryRaw<{ id: string }[]>`
      SELECT id FROM transfers WHERE patient_reference_id = 'common' AND id <> ${reviewed}
       ORDER BY received_at DESC, id DESC LIMIT ${HISTORY_LIMIT}`;
    expect(h.entries.map((e) => e.referenceID)).toEqual(expected.map((r) => r.id));
    expect(h.entries.every((e) => e.matchedBy.join() === "patient-id,name-dob")).toBe(true);
    expect(h.hasMore).toBe(true);
  });

  it("reads each rule's own index and about a page of rows, for the rare patient and the common one", async () => {
    for (const referenceID of ["trf_rare8", "trf_c0025000"]) {
      const { nodes, text } = await historyPlan(referenceID);
      expectNoWalkByReceivedAt(nodes, text);
      const indexes = new Set(nodes.map((n) => n["Index Name"]).filter(Boolean));
      expect(indexes, text).toContain("transfers_patient_name_key_patient_dob_received_at_id_idx");
      expect(indexes, text).toContain("transfers_partner_id_patient_reference_id_received_at_id_idx");
      // Each rule at most a page and one (plus the one reviewed, filtered), the page's rows read once more
      // for their columns, and the reviewed transfer itself.
      expect(transferRowsRead(nodes), text).toBeLessThanOrEqual(4 * (HISTORY_LIMIT + 2));
    }
  });
});
