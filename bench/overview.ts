// The overview's server time at scale: getOverview (what /overview renders and GET /api/overview answers)
// over a database of its own seeded with a year of transfers (2 % pending, the rest decided within 5 h, each
// decided one with a callback, 20 partners), first with no rollups (every day read live, as before the
// worker kept any), then after the worker's rollup; then GET /api/overview over HTTP from `npm start` on the
// same database, signed in. Runs in a child process pinned to one core (this file is also that child, and the
// server its child), so the bench's own database and environment stay untouched. The time zone is the one
// the server uses (the PHARMACY_NPI store's), so that the server reads the rollups made here.
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { getOverview } from "@/lib/overview/get-overview";
import { createPartner } from "@/lib/partners/create-partner";
import { findStoreTimeZone } from "@/lib/overview/overview-calendar";
import { rollUpOverview } from "@/lib/overview/roll-up-overview";
import { buildTransferRequest, DEMO_PHARMACY_NPI } from "@/lib/demo/sample-transfers";
import { createMigratedDatabase } from "@/tests/support/database";
import { createTestUser, signedInCookie } from "@/tests/support/dashboard-session";
import { freePort, TEST_SECRETS } from "@/tests/support/server";
import {
  NPM_START_ARGS,
  npmStartEnv,
  percentile,
  ROOT,
  runJsonChild,
  startProcess,
  stopProcess,
  waitForHttp,
} from "./support";

type Timing = { p50: number; p95: number; max: number };
export type OverviewBenchResult = {
  transfers: number;
  seedSeconds: number;
  /** No rollups: all 30 days aggregated live from the indexed columns. */
  live: { admin: Timing; samples: number };
  /** The worker's first rollup of the 29 closed days, and a later tick with nothing to roll up (the callbacks recounted). */
  rollUpMs: { first: number; steadyTick: number };
  /** Closed days from the rollups, today live. */
  rolledUp: { admin: Timing; pharmacist: Timing; samples: number };
  /** GET /api/overview from `npm start` (its worker off) as a pharmacist, with the rollups, measured by the client. */
  http: { pharmacist: Timing; samples: number; serverStartSeconds: number } | { error: string };
  timeZone: string;
};
type ChildArgs = { databaseUrl: string; transfers: number; samples: number };

const PARTNERS = 20;

export async function benchOverview(opts: {
  adminUrl: string;
  transfers: number;
  samples: number;
}): Promise<OverviewBenchResult> {
  const databaseUrl = await createMigratedDatabase(opts.adminUrl, "rx_bench_overview");
  return runJsonChild<OverviewBenchResult>(1, path.join(ROOT, "bench", "overview.ts"), {
    databaseUrl,
    transfers: opts.transfers,
    samples: opts.samples,
  } satisfies ChildArgs);
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const timing = (xs: number[]): Timing => ({
  p50: round(percentile(xs, 50)),
  p95: round(percentile(xs, 95)),
  max: round(Math.max(...xs)),
});

async function seed(databaseUrl: string, n: number): Promise<number> {
  const started = Date.now();
  // Real partners (sealed webhook secrets): the server checks them against its keys at start.
  const partnerIds: string[] = [];
  for (let i = 1; i <= PARTNERS; i++)
    partnerIds.push(
      (await createPartner({ name: `Partner ${i}`, callbackUrl: `https://p${i}.example/cb`, npis: [] })).partnerId,
    );
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      INSERT INTO users (id, email, name, password_hash, role)
      VALUES ('usr_bench', 'overview@bench.test', 'Bench', 'x', 'pharmacist')`);
    const template = JSON.stringify(buildTransferRequest());
    const batch = 100_000;
    for (let from = 1; from <= n; from += batch) {
      const to = Math.min(n, from + batch - 1);
      // One every 31.5 s over the year before now; 2 % pending; decided 0–299 minutes after arrival.
      await client.query(
        `INSERT INTO transfers (id, partner_id, request_id, content_hash, status, patient_first_name,
           patient_last_name, patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number,
           drug_name, drug_strength, has_allergies, received_at, decided_at, request, response, response_id)
         SELECT 'trf_ov' || g, ($5::text[])[g % ${PARTNERS} + 1], 'ov' || g, md5(g::text),
                (CASE WHEN g % 50 = 0 THEN 'RECEIVED' WHEN g % 7 = 0 THEN 'REJECTED' ELSE 'CONFIRMED' END)::"TransferStatus",
                'F', 'L', 'l f', '1970-01-01', '1843501234', 'S', '1245319599', 'RXOV' || g, 'Atorvastatin', '20 mg',
                false, a.at, CASE WHEN g % 50 <> 0 AND a.at + make_interval(mins => (g % 300)::int) < now()
                                  THEN a.at + make_interval(mins => (g % 300)::int) END,
                $1::jsonb, '{}'::jsonb, 'rsp_ov' || g
           FROM generate_series($2::bigint, $3::bigint) g
          CROSS JOIN LATERAL (SELECT now() - make_interval(secs => g * 31536000.0 / $4::bigint) AS at) a`,
        [template, from, to, n, partnerIds],
      );
    }
    await client.query(`
      INSERT INTO transfer_decisions (transfer_id, decision, user_id, pharmacist_name, decided_at, error_type, response)
      SELECT id, (CASE WHEN status = 'REJECTED' THEN 'REJECTED' ELSE 'APPROVED' END)::"Decision", 'usr_bench', 'Bench',
             decided_at, CASE WHEN status = 'REJECTED' THEN 'E' || (length(id) % 5) END, '{}'::jsonb
        FROM transfers WHERE decided_at IS NOT NULL`);
    // Most callbacks delivered within seconds; some still retrying, failed or refused.
    await client.query(`
      INSERT INTO callbacks (id, transfer_id, partner_id, payload, status, attempt_count, delivered_at, created_at)
      SELECT 'cb_' || id, id, partner_id, '{}'::jsonb, s.status::"CallbackStatus",
             CASE WHEN s.status = 'DELIVERED' THEN 1 ELSE 3 END,
             CASE WHEN s.status = 'DELIVERED' THEN decided_at + make_interval(secs => length(id) % 40) END, decided_at
        FROM transfers
       CROSS JOIN LATERAL (SELECT CASE WHEN hashtext(id) % 97 = 0 THEN 'FAILED' WHEN hashtext(id) % 89 = 0 THEN 'PENDING'
                                       WHEN hashtext(id) % 83 = 0 THEN 'REFUSED' ELSE 'DELIVERED' END AS status) s
       WHERE decided_at IS NOT NULL`);
    await client.query(
      `
      INSERT INTO partner_answer_counts (partner_id, minute, answers, failures, client_errors)
      SELECT p, date_trunc('minute', now()) - make_interval(mins => m), 10, (i * m) % 3, 0
        FROM unnest($1::text[]) WITH ORDINALITY AS x(p, i), generate_series(0, 59) m`,
      [partnerIds],
    );
    await client.query("VACUUM (ANALYZE) transfers, transfer_decisions, callbacks");
  } finally {
    await client.end();
  }
  return Math.round((Date.now() - started) / 1000);
}

async function timeCalls(samples: number, withPartners: boolean, timeZone: string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < samples + 2; i++) {
    const t = performance.now();
    const o = await getOverview({ withPartners, timeZone });
    if (o.last30Days.days.length !== 30) throw new Error("bench: the overview has no 30 days");
    if (i >= 2) ms.push(performance.now() - t);
  }
  return ms;
}

async function timeHttp(baseUrl: string, cookie: string, samples: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < samples + 2; i++) {
    const t = performance.now();
    const res = await fetch(`${baseUrl}/api/overview`, { headers: { cookie } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`bench: GET /api/overview answered ${res.status}: ${body}`);
    if (i >= 2) ms.push(performance.now() - t);
  }
  return ms;
}

async function child(args: ChildArgs): Promise<void> {
  setEnv({ DATABASE_URL: args.databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "warn", PHARMACY_NPI: DEMO_PHARMACY_NPI });
  const seedSeconds = await seed(args.databaseUrl, args.transfers);
  const tz = await findStoreTimeZone();
  const liveSamples = Math.max(3, Math.round(args.samples / 4));
  const live = await timeCalls(liveSamples, true, tz);
  let t = performance.now();
  await rollUpOverview({ timeZone: tz });
  const first = performance.now() - t;
  t = performance.now();
  await rollUpOverview({ timeZone: tz, sweepCallbacksEveryMs: 0 });
  const steadyTick = performance.now() - t;
  const admin = await timeCalls(args.samples, true, tz);
  const pharmacist = await timeCalls(args.samples, false, tz);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const startedAt = Date.now();
  const server = startProcess(
    1,
    process.execPath,
    NPM_START_ARGS,
    npmStartEnv({
      databaseUrl: args.databaseUrl,
      pharmacyNpi: DEMO_PHARMACY_NPI,
      env: { PORT: String(port), LOG_LEVEL: "warn", RUN_WORKER: "false" },
    }),
  );
  let http: OverviewBenchResult["http"];
  try {
    await waitForHttp(`${baseUrl}/v1/openapi.json`, server, 600_000);
    const serverStartSeconds = Math.round((Date.now() - startedAt) / 1000);
    // A pharmacist: an admin's session would owe a second factor first.
    const pharmacistCookie = await signedInCookie(baseUrl, await createTestUser("pharmacist"));
    http = {
      pharmacist: timing(await timeHttp(baseUrl, pharmacistCookie, args.samples)),
      samples: args.samples,
      serverStartSeconds,
    };
  } catch (err) {
    http = { error: err instanceof Error ? err.message : String(err) };
  } finally {
    await stopProcess(server);
  }
  await disconnectDb();
  const result: OverviewBenchResult = {
    transfers: args.transfers,
    seedSeconds,
    live: { admin: timing(live), samples: liveSamples },
    rollUpMs: { first: Math.round(first), steadyTick: Math.round(steadyTick) },
    rolledUp: { admin: timing(admin), pharmacist: timing(pharmacist), samples: args.samples },
    http,
    timeZone: tz,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  child(JSON.parse(process.argv[2]!) as ChildArgs).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
