// The review queue's query at 100 000 and 1 000 000 transfers: the first page, a filtered page, a
// search, a deep page and the review screen's patient history, each beside the floor of the same keyset read (a bare index scan that returns
// only ids), with the query plans showing the indexes used.
import pg from "pg";
import { Prisma } from "@/generated/prisma/client";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { getPatientHistory } from "@/lib/transfers/get-patient-history";
import { listQueue } from "@/lib/transfers/list-queue";
import { QueueQuerySchema, type QueueQuery } from "@/lib/transfers/queue-query";
import { buildTransferRequest } from "@/lib/transfers/fixtures";
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
export type QueueSize = { transfers: number; seedSeconds: number; cases: QueueCase[] };

/** Adds transfers up to `total` in batches: ~2 % pending, the rest decided, spread over a year. */
export async function seedTransfers(databaseUrl: string, partnerId: string, total: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = Date.now();
  try {
    const have = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM transfers")).rows[0]!.n);
    const template = JSON.stringify(buildTransferRequest());
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
           received_at, request, response, response_id)
         SELECT 'trf_bench' || lpad(i::text, 9, '0'), $1, 'bench-' || i, md5(i::text),
                s.status::"TransferStatus", CASE WHEN s.status <> 'REJECTED' THEN 'bench:' || i END,
                initcap(f.name), initcap(l.name), l.name || ' ' || f.name, date '1940-01-01' + (i * 7919 % 25000)::int,
                '1843501234', 'Bench Sender Pharmacy', '1245319599', 'RXB' || i, 'Atorvastatin', '20 mg',
                i % 3 = 0, CASE WHEN i % 5 = 0 THEN 'IV' ELSE 'none' END, 'atorvastatin', 'benchpat' || (i % 200000), now() - make_interval(secs => (($2::bigint - i) * 31536000.0 / $2::bigint)),
                $3::jsonb, '{}'::jsonb, 'rsp_bench' || i
           FROM generate_series($4::bigint, $5::bigint) AS i
           CROSS JOIN LATERAL (SELECT CASE WHEN i % 50 = 0 THEN 'RECEIVED' WHEN i % 12 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END AS status) s
           CROSS JOIN LATERAL (SELECT ($6::text[])[1 + (i % ${FIRST_NAMES.length})] AS name) f
           CROSS JOIN LATERAL (SELECT ($7::text[])[1 + ((i / ${FIRST_NAMES.length}) % ${LAST_NAMES.length})] AS name) l`,
        [partnerId, total, template, from, to, FIRST_NAMES, LAST_NAMES],
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
  results.push(await benchHistory(opts, capture));
  return results;
}

/**
 * The review screen's patient history (issue 17) for a pending transfer: both match rules (name + date of
 * birth, and the sender's patient id: 5 transfers share each bench patient id) with the audit row it writes,
 * beside the bare index read of the same matches.
 */
async function benchHistory(
  opts: { databaseUrl: string; actor: SessionUser; runs: number },
  capture: { take(): Captured[] },
): Promise<QueueCase> {
  const [target] = await db().$queryRaw<
    {
      id: string;
      partner_id: string;
      patient_name_key: string;
      patient_dob: Date;
      patient_reference_id: string | null;
    }[]
  >`
    SELECT id, partner_id, patient_name_key, patient_dob, patient_reference_id FROM transfers
     WHERE status = 'RECEIVED' ORDER BY received_at, id LIMIT 1`;
  if (!target) throw new Error("bench: no pending transfer for the history case");
  const run = () => getPatientHistory({ referenceID: target.id, actor: opts.actor, clientAddress: "127.0.0.1" });
  const floor = () => db().$queryRaw`
    SELECT id FROM transfers
     WHERE (patient_name_key = ${target.patient_name_key} AND patient_dob = ${target.patient_dob})
        OR (partner_id = ${target.partner_id} AND patient_reference_id = ${target.patient_reference_id})`;
  const done = progress("queue: patient history (review screen)", 1);
  await timeIt(3, run);
  await timeIt(3, floor);
  capture.take();
  await run();
  const historyQuery = capture.take().find((q) => q.query.includes("WITH cur"));
  const ours = await timeIt(opts.runs, run);
  const base = await timeIt(opts.runs, floor);
  done();
  const p50 = percentile(ours, 50);
  const baselineP50 = percentile(base, 50);
  return {
    name: "patient history (name + DOB or sender's patient id)",
    p50: round(p50),
    p95: round(percentile(ours, 95)),
    baselineP50: round(baselineP50),
    baselineP95: round(percentile(base, 95)),
    ratio: round(p50 / baselineP50),
    plan: historyQuery ? await explain(opts.databaseUrl, historyQuery) : [],
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
