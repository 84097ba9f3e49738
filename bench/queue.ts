// The review queue's query at 100 000 and 1 000 000 transfers: the first page, a filtered page, a
// search, a deep page and the review screen's patient history, each beside the floor of the same keyset read (a bare index scan that returns
// only ids), with the query plans showing the indexes used.
import pg from "pg";
import { Prisma } from "@/generated/prisma/client";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import {
  DUPLICATE_THERAPY_DAYS,
  getPatientHistory,
  HISTORY_LIMIT,
  DEFAULT_EARLY_REFILL_ALLOWANCE,
  getTransferReview,
  historyRows,
} from "@/lib/transfers/review";
import { listQueue, QueueQuerySchema, type QueueQuery } from "@/lib/transfers/queue";
import { DEFAULT_STORE_RULES } from "@/lib/stores/store-rules";
import { classifyTransfer } from "@/lib/transfers/intake";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { getTransferActivity } from "@/lib/transfers/record";
import { percentile, progress } from "./support";

const LAST_NAMES = [
  "smith",
  "johnson",
  "williams",
  "brown",
  "jones",
  "garcia",
  "miller",
  "davis",
  "rodriguez",
  "martinez",
  "hernandez",
  "lopez",
  "gonzalez",
  "wilson",
  "anderson",
  "thomas",
  "taylor",
  "moore",
  "jackson",
  "martin",
  "lee",
  "perez",
  "thompson",
  "white",
  "harris",
  "sanchez",
  "clark",
  "ramirez",
  "lewis",
  "robinson",
  "walker",
  "young",
  "allen",
  "king",
  "wright",
  "scott",
  "torres",
  "nguyen",
  "hill",
  "flores",
];
const FIRST_NAMES = [
  "james",
  "mary",
  "robert",
  "patricia",
  "john",
  "jennifer",
  "michael",
  "linda",
  "david",
  "elizabeth",
  "william",
  "barbara",
  "richard",
  "susan",
  "joseph",
  "jessica",
  "thomas",
  "sarah",
  "charles",
  "karen",
];

export type QueueCase = {
  name: string;
  p50: number;
  p95: number;
  baselineP50: number;
  baselineP95: number;
  ratio: number;
  plan: string[];
};
export type QueueSize = { transfers: number; seedSeconds: number; databaseBytes?: number; cases: QueueCase[] };

/**
 * One patient holds this share of the seeded table (100 000 of 1 000 000): a chronic patient, or a sender
 * reusing one patient id. Real data is skewed like this, and the statistics it gives the planner once made
 * the patient history walk the whole table for everyone else (bench/HISTORY.md).
 */
export const SKEWED_PATIENT_SHARE = 0.1;
export const SKEWED_PATIENT_REFERENCE = "benchskew";

/**
 * Adds transfers up to `total` in batches: ~2 % pending, the rest decided, spread over a year; of them,
 * SKEWED_PATIENT_SHARE belong to one patient (the intake template's name and date of birth, one sender's id).
 */
export async function seedTransfers(databaseUrl: string, partnerId: string, total: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = Date.now();
  try {
    const request = buildTransferRequest();
    const template = JSON.stringify(request);
    // The review checks as the intake stores them: the template's, and for the rows seeded as Schedule IV
    // the template's with the drug at C-IV (its sender's date is then past the 6-month legal expiry).
    const options = { earlyRefillAllowance: DEFAULT_EARLY_REFILL_ALLOWANCE };
    const checks = classifyTransfer(request, DEFAULT_STORE_RULES, new Date(), options);
    const asIv = { ...DEFAULT_STORE_RULES, extraSchedules: [{ substance: "atorvastatin", schedule: "IV" as const }] };
    const ivChecks = classifyTransfer(request, asIv, new Date(), options);
    const checkColumns = [checks.checkFlags, checks.warnsFrom];
    await seedSkewedPatient(client, partnerId, Math.round(total * SKEWED_PATIENT_SHARE), total, template, checkColumns);
    const have = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM transfers")).rows[0]!.n);
    const batch = 100_000;
    for (let from = have + 1; from <= total; from += batch) {
      const to = Math.min(total, from + batch - 1);
      const done = progress(
        `seeding transfers ${from.toLocaleString()}–${to.toLocaleString()} of ${total.toLocaleString()}`,
        1,
      );
      await client.query(
        `INSERT INTO transfers (id, partner_id, request_id, content_hash, status, active_rx_key,
           patient_first_name, patient_last_name, patient_search, patient_dob, sending_npi, sending_name, receiving_npi,
           rx_number, drug_name, drug_strength, has_allergies, drug_schedule, drug_substance_key, patient_reference_id,
           received_at, request, response, response_id, check_flags, warns_from)
         SELECT 'trf_bench' || lpad(i::text, 9, '0'), $1, 'bench-' || i, md5(i::text),
                s.status::"TransferStatus", CASE WHEN s.status <> 'REJECTED' THEN 'bench:' || i END,
                initcap(f.name), initcap(l.name), l.name || ' ' || f.name, date '1940-01-01' + (i * 7919 % 25000)::int,
                '1843501234', 'Bench Sender Pharmacy', '1245319599', 'RXB' || i, 'Atorvastatin', '20 mg',
                i % 3 = 0, CASE WHEN i % 5 = 0 THEN 'IV' ELSE 'none' END, 'atorvastatin', 'benchpat' || (i % 200000), now() - make_interval(secs => (($2::bigint - i) * 31536000.0 / $2::bigint)),
                $3::jsonb, '{}'::jsonb, 'rsp_bench' || i,
                CASE WHEN i % 5 = 0 THEN $10::text[] ELSE $8::text[] END, CASE WHEN i % 5 = 0 THEN $11::date ELSE $9::date END
           FROM generate_series($4::bigint, $5::bigint) AS i
           CROSS JOIN LATERAL (SELECT CASE WHEN i % 50 = 0 THEN 'RECEIVED' WHEN i % 12 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END AS status) s
           CROSS JOIN LATERAL (SELECT ($6::text[])[1 + (i % ${FIRST_NAMES.length})] AS name) f
           CROSS JOIN LATERAL (SELECT ($7::text[])[1 + ((i / ${FIRST_NAMES.length}) % ${LAST_NAMES.length})] AS name) l`,
        [
          partnerId,
          total,
          template,
          from,
          to,
          FIRST_NAMES,
          LAST_NAMES,
          ...checkColumns,
          ivChecks.checkFlags,
          ivChecks.warnsFrom,
        ],
      );
      done();
    }
    // The state a live table settles in (autovacuum runs after large inserts): hint bits and the visibility
    // map set, statistics fresh. Without it, autovacuum starts on the new rows in the middle of the timings.
    await client.query("VACUUM (ANALYZE) transfers");
  } finally {
    await client.end();
  }
  return Math.round((Date.now() - started) / 1000);
}

/** Tops the skewed patient up to `count` transfers, spread over the same year as the rest. */
async function seedSkewedPatient(
  client: pg.Client,
  partnerId: string,
  count: number,
  total: number,
  template: string,
  checkColumns: unknown[],
): Promise<void> {
  const have = Number(
    (
      await client.query<{ n: string }>("SELECT count(*) AS n FROM transfers WHERE patient_reference_id = $1", [
        SKEWED_PATIENT_REFERENCE,
      ])
    ).rows[0]!.n,
  );
  if (have >= count) return;
  const done = progress(`seeding ${(count - have).toLocaleString()} transfers of one patient (skew)`, 1);
  await client.query(
    `INSERT INTO transfers (id, partner_id, request_id, content_hash, status, active_rx_key,
       patient_first_name, patient_last_name, patient_search, patient_dob, sending_npi, sending_name, receiving_npi,
       rx_number, drug_name, drug_strength, has_allergies, drug_schedule, drug_substance_key, patient_reference_id,
       received_at, request, response, response_id, check_flags, warns_from)
     SELECT 'trf_skew' || lpad(i::text, 9, '0'), $1, 'skew-' || i, md5('skew' || i),
            s.status::"TransferStatus", CASE WHEN s.status <> 'REJECTED' THEN 'skew:' || i END,
            'Maria', 'Alvarez', 'alvarez maria', date '1958-03-14',
            '1843501234', 'Bench Sender Pharmacy', '1245319599', 'RXS' || i, 'Atorvastatin', '20 mg',
            true, 'none', 'atorvastatin', $2, now() - make_interval(secs => (i * 31536000.0 / $3::bigint)),
            $4::jsonb, '{}'::jsonb, 'rsp_skew' || i, $7::text[], $8::date
       FROM generate_series($5::bigint, $6::bigint) AS i
       CROSS JOIN LATERAL (SELECT CASE WHEN i % 50 = 0 THEN 'RECEIVED' WHEN i % 12 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END AS status) s`,
    [partnerId, SKEWED_PATIENT_REFERENCE, count, template, have + 1, count, ...checkColumns],
  );
  done();
}

type Captured = { query: string; params: string };

/** The SQL the queue sends, captured from Prisma's query events, for EXPLAIN. */
function captureQueries(): { take(): Captured[] } {
  let captured: Captured[] = [];
  const client = db() as unknown as { $on(event: "query", cb: (e: Captured) => void): void };
  client.$on("query", (e) => captured.push({ query: e.query, params: e.params }));
  return {
    take: () => {
      const out = captured;
      captured = [];
      return out;
    },
  };
}

async function explain(databaseUrl: string, q: Captured): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const params = JSON.parse(q.params) as unknown[];
    const rows = await client.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${q.query}`,
      params,
    );
    return rows.rows.map((r) => r["QUERY PLAN"]);
  } finally {
    await client.end();
  }
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return ms;
}

export async function benchQueue(opts: {
  databaseUrl: string;
  partnerId: string;
  actor: SessionUser;
  runs: number;
}): Promise<QueueCase[]> {
  const capture = captureQueries();
  const middle = await db().$queryRaw<{ received_at: Date; id: string }[]>`
    SELECT received_at, id FROM transfers WHERE status = 'RECEIVED'
     ORDER BY received_at, id OFFSET (SELECT count(*) * 9 / 10 FROM transfers WHERE status = 'RECEIVED') LIMIT 1`;
  const deep = middle[0];
  const deepCursor = deep
    ? Buffer.from(JSON.stringify({ p: 0, t: deep.received_at.toISOString(), i: deep.id })).toString("base64url")
    : undefined;

  const cases: { name: string; query: Partial<QueueQuery>; floor: Prisma.Sql }[] = [
    {
      name: "first page (pending, oldest first)",
      query: {},
      floor: Prisma.sql`SELECT id FROM transfers WHERE status = 'RECEIVED' ORDER BY received_at, id LIMIT 51`,
    },
    {
      name: "filtered page (sender + allergies)",
      query: { sender: opts.partnerId, flags: ["allergies"] },
      floor: Prisma.sql`SELECT id FROM transfers WHERE status = 'RECEIVED' AND partner_id = ${opts.partnerId} AND has_allergies ORDER BY received_at, id LIMIT 51`,
    },
    {
      name: "filtered page (schedule C-IV)",
      query: { schedule: "IV" },
      floor: Prisma.sql`SELECT id FROM transfers WHERE status = 'RECEIVED' AND drug_schedule = 'IV' ORDER BY received_at, id LIMIT 51`,
    },
    {
      // The seeded transfers are clean: no row matches, so the page read and each count go through every
      // row of their status. Floor: the first page of pending transfers in index order.
      name: "filtered page (warnings)",
      query: { flags: ["warnings"] },
      floor: Prisma.sql`SELECT id FROM transfers WHERE status = 'RECEIVED' ORDER BY received_at, id LIMIT 51`,
    },
    {
      name: "search (patient name prefix, all statuses)",
      query: { status: "all", q: "garcia ja" },
      floor: Prisma.sql`SELECT id FROM transfers WHERE patient_search LIKE 'garcia ja%' ORDER BY received_at, id LIMIT 51`,
    },
    {
      name: "deep page (90 % into the pending queue)",
      query: { cursor: deepCursor },
      floor: deep
        ? Prisma.sql`SELECT id FROM transfers WHERE status = 'RECEIVED' AND (received_at, id) > (${deep.received_at}, ${deep.id}) ORDER BY received_at, id LIMIT 51`
        : Prisma.sql`SELECT 1`,
    },
  ];

  const results: QueueCase[] = [];
  for (const c of cases) {
    const query = QueueQuerySchema.parse(c.query);
    const run = () => listQueue(query, { actor: opts.actor, clientAddress: "127.0.0.1" });
    const floor = () => db().$queryRaw(c.floor);
    const done = progress(`queue: ${c.name}`, 1);
    await timeIt(3, run);
    await timeIt(3, floor);
    capture.take();
    await run();
    const queries = capture.take();
    const ours = await timeIt(opts.runs, run);
    const base = await timeIt(opts.runs, floor);
    done();
    // The page read is the query that names the partners join; the counts are the others.
    const pageQuery = queries.find((q) => q.query.includes("JOIN") && q.query.includes("partners")) ?? queries[0];
    const plan = pageQuery ? await explain(opts.databaseUrl, pageQuery) : [];
    const p50 = percentile(ours, 50);
    const baselineP50 = percentile(base, 50);
    results.push({
      name: c.name,
      p50: round(p50),
      p95: round(percentile(ours, 95)),
      baselineP50: round(baselineP50),
      baselineP95: round(percentile(base, 95)),
      ratio: round(p50 / baselineP50),
      plan,
    });
  }
  results.push(...(await benchHistory(opts, capture)));
  results.push(...(await benchReviewScreen(opts)));
  return results;
}

type HistoryKeys = {
  id: string;
  partner_id: string;
  patient_name_key: string;
  patient_dob: string;
  patient_reference_id: string | null;
};

/**
 * The review screen's patient history, for the oldest pending transfer of a bench patient (5 transfers share
 * each bench patient id) beside the patient with SKEWED_PATIENT_SHARE of the table, and for that patient's own
 * oldest pending transfer: getPatientHistory as the screen calls it (with its audit row), then its rows
 * statement alone beside the previous shape's (one OR of both rules under the ORDER BY … LIMIT), in the same
 * run on the same table. Baseline: the bare index reads of the same matches (at most 51 per rule, unordered).
 */
async function benchHistory(
  opts: { databaseUrl: string; actor: SessionUser; runs: number },
  capture: { take(): Captured[] },
): Promise<QueueCase[]> {
  const target = async (where: Prisma.Sql) => {
    const [row] = await db().$queryRaw<HistoryKeys[]>`
      SELECT id, partner_id, patient_name_key, patient_dob::text AS patient_dob, patient_reference_id FROM transfers
       WHERE status = 'RECEIVED' AND ${where} ORDER BY received_at, id LIMIT 1`;
    if (!row) throw new Error("bench: no pending transfer for the history case");
    return row;
  };
  const common = await target(Prisma.sql`patient_reference_id <> ${SKEWED_PATIENT_REFERENCE}`);
  const skewed = await target(Prisma.sql`patient_reference_id = ${SKEWED_PATIENT_REFERENCE}`);
  const skewCount = (
    await db().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM transfers WHERE patient_reference_id = ${SKEWED_PATIENT_REFERENCE}`
  )[0]!.n;
  const floor = (t: HistoryKeys) => () => db().$queryRaw`
    (SELECT id FROM transfers WHERE patient_name_key = ${t.patient_name_key} AND patient_dob = ${t.patient_dob}::date LIMIT 51)
    UNION ALL
    (SELECT id FROM transfers WHERE partner_id = ${t.partner_id} AND patient_reference_id = ${t.patient_reference_id} LIMIT 51)`;
  const ours = (t: HistoryKeys) => () =>
    getPatientHistory({ referenceID: t.id, actor: opts.actor, clientAddress: "127.0.0.1" });
  // The rows statement alone, in each shape: what the two shapes differ in, without the target's read and
  // the audit row that getPatientHistory adds to both.
  const statement = (t: HistoryKeys) => {
    const sql = historyRows(t, { limit: HISTORY_LIMIT + 1, duplicateTherapyDays: DUPLICATE_THERAPY_DAYS })!;
    return () => sql.execute();
  };
  const previous = (t: HistoryKeys) => () => db().$queryRaw(previousHistoryShape(t.id));
  const many = skewCount.toLocaleString();
  const cases: { name: string; run: () => Promise<unknown>; floor: () => Promise<unknown> }[] = [
    {
      name: `patient history (getPatientHistory: target, rows, audit row), beside a patient with ${many}`,
      run: ours(common),
      floor: floor(common),
    },
    { name: "  its rows statement (each rule's index, limited, UNION)", run: statement(common), floor: floor(common) },
    { name: "  the previous rows statement (one OR of both rules)", run: previous(common), floor: floor(common) },
    {
      name: `patient history (getPatientHistory) of the patient with ${many} transfers`,
      run: ours(skewed),
      floor: floor(skewed),
    },
    { name: "  its rows statement (each rule's index, limited, UNION)", run: statement(skewed), floor: floor(skewed) },
    { name: "  the previous rows statement (one OR of both rules)", run: previous(skewed), floor: floor(skewed) },
  ];
  const plans: string[][] = [];
  for (const c of cases) {
    await timeIt(3, c.run);
    await timeIt(3, c.floor);
    capture.take();
    await c.run();
    const historyQuery = capture.take().find((q) => q.query.includes("WITH cur"));
    plans.push(historyQuery ? await explain(opts.databaseUrl, historyQuery) : []);
  }
  // Round robin, a sample of each case in turn: the shapes compared see the same moments of a busy machine.
  const done = progress(`queue: patient history, ${cases.length} cases in turn`, 1);
  const ms = cases.map((): number[] => []);
  const base = cases.map((): number[] => []);
  for (let i = 0; i < opts.runs; i++) {
    for (const [k, c] of cases.entries()) ms[k]!.push(...(await timeIt(1, c.run)));
    for (const [k, c] of cases.entries()) base[k]!.push(...(await timeIt(1, c.floor)));
  }
  done();
  return cases.map((c, k) => {
    const p50 = percentile(ms[k]!, 50);
    const baselineP50 = percentile(base[k]!, 50);
    return {
      name: c.name,
      p50: round(p50),
      p95: round(percentile(ms[k]!, 95)),
      baselineP50: round(baselineP50),
      baselineP95: round(percentile(base[k]!, 95)),
      ratio: round(p50 / baselineP50),
      plan: plans[k]!,
    };
  });
}

/**
 * The review screen's server work beside the queue page's, as the routes call the domain operations: the page
 * renders getTransferReview (with its audit row) and getTransferActivity, then the screen asks for the patient
 * history (another audit row); the queue page is listQueue's first page (with its audit row). Both for the
 * oldest pending transfer of a bench patient; baseline: the transfer's primary-key read.
 */
async function benchReviewScreen(opts: { actor: SessionUser; runs: number }): Promise<QueueCase[]> {
  const [row] = await db().$queryRaw<{ id: string }[]>`
    SELECT id FROM transfers WHERE status = 'RECEIVED' AND patient_reference_id <> ${SKEWED_PATIENT_REFERENCE}
     ORDER BY received_at, id LIMIT 1`;
  const id = row!.id;
  const ctx = { actor: opts.actor, clientAddress: "127.0.0.1" };
  const floor = () => db().$queryRaw`SELECT id FROM transfers WHERE id = ${id}`;
  const cases: { name: string; run: () => Promise<unknown> }[] = [
    {
      name: "queue page (listQueue, first page)",
      run: () => listQueue(QueueQuerySchema.parse({}), ctx),
    },
    {
      name: "review screen's server work (the three below)",
      run: async () => {
        await getTransferReview(id, { ...ctx, screen: "review" });
        await getTransferActivity(id);
        await getPatientHistory({ referenceID: id, ...ctx });
      },
    },
    { name: "  getTransferReview", run: () => getTransferReview(id, { ...ctx, screen: "review" }) },
    { name: "  getTransferActivity", run: () => getTransferActivity(id) },
    { name: "  getPatientHistory", run: () => getPatientHistory({ referenceID: id, ...ctx }) },
  ];
  for (const c of cases) {
    await timeIt(3, c.run);
    await timeIt(3, floor);
  }
  // Round robin, as the history's cases: the pages compared see the same moments of a busy machine.
  const done = progress(`review screen and queue page, ${cases.length} cases in turn`, 1);
  const ms = cases.map((): number[] => []);
  const base: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    for (const [k, c] of cases.entries()) ms[k]!.push(...(await timeIt(1, c.run)));
    base.push(...(await timeIt(1, floor)));
  }
  done();
  const baselineP50 = percentile(base, 50);
  return cases.map((c, k) => ({
    name: c.name,
    p50: round(percentile(ms[k]!, 50)),
    p95: round(percentile(ms[k]!, 95)),
    baselineP50: round(baselineP50),
    baselineP95: round(percentile(base, 95)),
    ratio: round(percentile(ms[k]!, 50) / baselineP50),
    plan: [],
  }));
}

/**
 * The patient history's rows as one OR of both match rules under ORDER BY … LIMIT (what getPatientHistory
 * sent before lib/transfers/patient-history-sql.ts), kept here to measure against in the same run.
 */
function previousHistoryShape(referenceID: string): Prisma.Sql {
  return Prisma.sql`
    WITH cur AS (
      SELECT id, partner_id, patient_name_key, patient_dob, patient_reference_id, drug_substance_key, received_at
        FROM transfers WHERE id = ${referenceID})
    SELECT h.id, h.status::text AS status, h.drug_name, h.drug_strength, h.received_at, h.decided_at,
           d.pharmacist_name AS decided_by, d.error_type, p.name AS sender,
           (h.patient_name_key = cur.patient_name_key AND h.patient_dob = cur.patient_dob) AS by_name,
           (h.partner_id = cur.partner_id AND h.patient_reference_id = cur.patient_reference_id) AS by_patient_id,
           (h.patient_dob <> cur.patient_dob) AS dob_differs,
           (h.status IN ('RECEIVED', 'CONFIRMED') AND h.drug_substance_key <> '' AND h.drug_substance_key = cur.drug_substance_key
             AND h.received_at BETWEEN cur.received_at - make_interval(days => ${DUPLICATE_THERAPY_DAYS})
                                   AND cur.received_at + make_interval(days => ${DUPLICATE_THERAPY_DAYS})) AS duplicate,
           ((h.received_at, h.id) > (cur.received_at, cur.id)) AS after_current
      FROM cur
      JOIN transfers h ON h.id <> cur.id
       AND ((cur.patient_name_key <> '|' AND h.patient_name_key = cur.patient_name_key AND h.patient_dob = cur.patient_dob)
         OR (h.partner_id = cur.partner_id AND h.patient_reference_id = cur.patient_reference_id))
      JOIN partners p ON p.id = h.partner_id
      LEFT JOIN transfer_decisions d ON d.transfer_id = h.id
     ORDER BY h.received_at DESC, h.id DESC
     LIMIT ${HISTORY_LIMIT + 1}`;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
