// `npm run bench [-- --quick] [--only intake|queue|callbacks|approvals|metrics|dashboard]`: every figure beside its baseline, measured
// in the same run, reported as a ratio; a table on stdout and the whole result as JSON in bench/results/.
// --quick is the smoke run the test suite uses (short runs, small data); --only measures one part.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { enableQueryEvents } from "@/lib/db/prisma";
import { env, setEnv } from "@/lib/env";
import { createUser } from "@/lib/users/create-user";
import { createPartner } from "@/lib/partners/create-partner";
import { DEMO_PHARMACY_NPI } from "@/lib/transfers/fixtures";
import { createMigratedDatabase, startTestPostgres } from "@/tests/support/database";
import { ensureBuild, TEST_SECRETS } from "@/tests/support/server";
import { benchIntake, type IntakeResult } from "./intake";
import { benchMetricsOverhead, type MetricsOverheadResult } from "./metrics-overhead";
import { benchApprovals, type ApprovalsResult } from "./approvals";
import { benchCallbacks, type CallbacksResult } from "./callbacks";
import { benchDashboard, type DashboardResult } from "./dashboard";
import { benchQueue, seedTransfers, type QueueSize } from "./queue";
import { ROOT } from "./support";

const quick = process.argv.includes("--quick");
const PARTS = ["intake", "queue", "dashboard", "callbacks", "metrics", "approvals"] as const;
type Part = (typeof PARTS)[number];
const onlyArg = process.argv[process.argv.indexOf("--only") + 1];
if (process.argv.includes("--only") && !PARTS.includes(onlyArg as Part)) {
  process.stderr.write(`--only takes one of: ${PARTS.join(", ")}\n`);
  process.exit(2);
}
/** `--intake-before <checkout>`: run that built checkout's `npm start` in the intake's rounds too (an A/B). */
const intakeBefore = process.argv.includes("--intake-before")
  ? process.argv[process.argv.indexOf("--intake-before") + 1]
  : undefined;
/** `--callbacks-before <checkout>` (repeatable): that checkout's worker in the callbacks' drain rounds too (an A/B). */
const callbacksBefore = process.argv.flatMap((arg, i) => (arg === "--callbacks-before" ? [process.argv[i + 1]!] : []));
/**
 * `--callbacks-sweep 16x4,32x4,8x8,32x4@0`: more workers of this checkout in the callbacks' rounds, as batch
 * size x concurrency, and @ CALLBACK_GATHER_MS when given.
 */
const callbacksSweep = process.argv.includes("--callbacks-sweep")
  ? process.argv[process.argv.indexOf("--callbacks-sweep") + 1]!.split(",").map((spec) => {
      const [size, delay] = spec.split("@");
      return [...size!.split("x").map(Number), delay === undefined ? undefined : Number(delay)] as const;
    })
  : [];
const runs = (part: Part) => !process.argv.includes("--only") || onlyArg === part;
const settings = quick ? { connections: 10, seconds: 3, rounds: 1 } : { connections: 50, seconds: 20, rounds: 2 };
const queueSizes = quick ? [20_000] : [100_000, 1_000_000];
const queueRuns = quick ? 5 : 40;
const approvalSettings = quick ? { count: 20, rounds: 1 } : { count: 300, rounds: 4 };
// The dashboard in Chromium: over the largest queue size (seeded here when the queue part did not run).
const dashboardSettings = quick ? { samples: 3, warmUp: 1 } : { samples: 40, warmUp: 3 };
const callbackSettings = quick
  ? { count: 20, latencySamples: 5, drainRounds: 1 }
  : { count: 500, latencySamples: 50, drainRounds: 3 };

function step(text: string): void {
  process.stdout.write(`\n▶ ${text}\n`);
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>("SHOW server_version")).rows[0]!.server_version;
  } finally {
    await client.end();
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")).join("\n");
}

async function main(): Promise<void> {
  const started = Date.now();
  step(quick ? "quick smoke run" : "full run");
  step("production build");
  ensureBuild();

  step("PostgreSQL");
  const postgres = await startTestPostgres();
  try {
    const databaseUrl = await createMigratedDatabase(postgres.adminUrl, "rx_bench");
    const authSecret = TEST_SECRETS.AUTH_SECRET;
    // `npm start` requires explicit keys; this process writes sealed secrets and audit records with the same.
    setEnv({
      DATABASE_URL: databaseUrl,
      ...TEST_SECRETS,
      CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
      CALLBACK_ALLOW_INSECURE_HTTP: "true",
      LOG_LEVEL: "warn",
    });
    enableQueryEvents();
    const partner = await createPartner({ name: "Bench Sender", callbackUrl: "http://127.0.0.1:9/unused", npis: [] });
    const pgVersion = await serverVersion(databaseUrl);

    let intake: IntakeResult | undefined;
    if (runs("intake")) {
      step(`intake: ${settings.rounds} round(s) of ${settings.seconds} s at ${settings.connections} connections`);
      intake = await benchIntake({
        databaseUrl,
        authSecret,
        apiKey: partner.apiKey,
        pharmacyNpi: DEMO_PHARMACY_NPI,
        ...settings,
        before: intakeBefore,
      });
    }

    let metrics: MetricsOverheadResult | undefined;
    if (runs("metrics")) {
      step(
        `metrics overhead: intake with metrics recorded and scraped every second vs METRICS_ENABLED=false, ${Math.max(2, settings.rounds)} alternating rounds of ${settings.seconds} s`,
      );
      metrics = await benchMetricsOverhead({
        databaseUrl,
        authSecret,
        apiKey: partner.apiKey,
        pharmacyNpi: DEMO_PHARMACY_NPI,
        ...settings,
        rounds: Math.max(2, settings.rounds),
      });
    }

    const { userId } = await createUser({
      email: "bench@pharmacy.test",
      password: randomBytes(12).toString("base64url"),
      role: "pharmacist",
      name: "Bench Pharmacist",
    });
    const actor = { id: userId, email: "bench@pharmacy.test", name: "Bench Pharmacist", role: "pharmacist" as const };
    let queue: QueueSize[] | undefined;
    if (runs("queue")) {
      queue = [];
      for (const size of queueSizes) {
        step(`queue at ${size.toLocaleString()} transfers`);
        const seedSeconds = await seedTransfers(databaseUrl, partner.partnerId, size);
        queue.push({
          transfers: size,
          seedSeconds,
          cases: await benchQueue({ databaseUrl, partnerId: partner.partnerId, actor, runs: queueRuns }),
        });
      }
    }

    let dashboard: DashboardResult | undefined;
    if (runs("dashboard")) {
      const size = queueSizes[queueSizes.length - 1]!;
      step(
        `dashboard in Chromium over ${size.toLocaleString()} transfers: ${dashboardSettings.warmUp} warm-up + ${dashboardSettings.samples} samples`,
      );
      if (!queue) await seedTransfers(databaseUrl, partner.partnerId, size);
      const pharmacist = {
        email: "bench-dashboard@pharmacy.test",
        password: randomBytes(12).toString("base64url"),
        name: "Dana Bench, PharmD",
      };
      await createUser({ ...pharmacist, role: "pharmacist" });
      dashboard = await benchDashboard({
        databaseUrl,
        apiKey: partner.apiKey,
        pharmacyNpi: DEMO_PHARMACY_NPI,
        transfersInTable: size,
        pharmacist,
        ...dashboardSettings,
      });
    }

    let approvals: ApprovalsResult | undefined;
    if (runs("approvals")) {
      step(
        `approvals: ${approvalSettings.rounds} alternating round(s) of ${approvalSettings.count}, 1 audit chain vs AUDIT_CHAINS`,
      );
      approvals = await benchApprovals({
        databaseUrl,
        partnerId: partner.partnerId,
        pharmacyNpi: DEMO_PHARMACY_NPI,
        actor,
        ...approvalSettings,
      });
    }

    let callbacks: CallbacksResult | undefined;
    if (runs("callbacks")) {
      step(`callbacks: ${callbackSettings.count} deliveries, ${callbackSettings.latencySamples} latency samples`);
      callbacks = await benchCallbacks({
        databaseUrl,
        authSecret,
        pharmacyNpi: DEMO_PHARMACY_NPI,
        actor,
        batchSize: env().CALLBACK_BATCH_SIZE,
        extraVariants: [
          ...callbacksBefore.map((dir) => ({
            label: `${path.basename(path.resolve(dir))} batch ${env().CALLBACK_BATCH_SIZE}`,
            checkout: path.resolve(dir),
            batchSize: env().CALLBACK_BATCH_SIZE,
            concurrency: 4,
          })),
          ...callbacksSweep.map(([batchSize = 8, concurrency = 4, gatherMs]) => ({
            label: `batch ${batchSize} x ${concurrency}${gatherMs === undefined ? "" : ` gather ${gatherMs} ms`}`,
            checkout: ROOT,
            batchSize,
            concurrency,
            ...(gatherMs !== undefined && { env: { CALLBACK_GATHER_MS: String(gatherMs) } }),
          })),
        ],
        ...callbackSettings,
      });
    }

    const result = {
      at: new Date().toISOString(),
      quick,
      only: process.argv.includes("--only") ? onlyArg : null,
      machine: { ...machine(), postgres: pgVersion },
      intake,
      queue,
      dashboard,
      approvals,
      callbacks,
      metrics,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    const dir = path.join(ROOT, "bench", "results");
    mkdirSync(dir, { recursive: true });
    const file = path.join(
      dir,
      `${result.at.replace(/[:.]/g, "-")}${quick ? "-quick" : ""}${result.only ? `-${result.only}` : ""}.json`,
    );
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);

    if (intake) {
      process.stdout.write(
        `\n${table([
          ["figure", "ours", "baseline", "ratio"],
          [
            "intake req/s",
            String(intake.ours.requestsPerSecond),
            String(intake.baseline.requestsPerSecond),
            String(intake.ratio),
          ],
          [
            "intake p50 ms",
            String(intake.ours.p50),
            String(intake.baseline.p50),
            (intake.ours.p50 / intake.baseline.p50).toFixed(2),
          ],
          [
            "intake p99 ms",
            String(intake.ours.p99),
            String(intake.baseline.p99),
            (intake.ours.p99 / intake.baseline.p99).toFixed(2),
          ],
          [
            "intake server CPU ms/request",
            String(intake.ours.cpuMsPerRequest),
            String(intake.baseline.cpuMsPerRequest),
            String(intake.cpuRatio),
          ],
          [
            "intake DB transactions/request",
            String(intake.ours.transactionsPerRequest),
            String(intake.baseline.transactionsPerRequest),
            "",
          ],
        ])}\n`,
      );
      const old = intake.before;
      if (old) {
        process.stdout.write(
          `before (${old.checkout}): ${old.requestsPerSecond} req/s (ratio ${old.ratio}), p50 ${old.p50} ms, p99 ${old.p99} ms, ${old.cpuMsPerRequest} ms CPU/request, ${old.transactionsPerRequest} DB transactions/request\n`,
        );
      }
      const half = intake.atHalfBaseline;
      process.stdout.write(
        `ours paced at half the baseline's throughput (${half.rate} req/s): p50 ${half.p50} ms, p99 ${half.p99} ms\n`,
      );
      const rh = intake.routeHandler;
      process.stdout.write(
        `(reference: the same endpoint through Next's route handler, \`next start\`: ${rh.requestsPerSecond} req/s, p50 ${rh.p50} ms, p99 ${rh.p99} ms, ${rh.cpuMsPerRequest} ms CPU/request)\n`,
      );
    }
    if (metrics) {
      process.stdout.write(
        `\nmetrics overhead (${metrics.on.scrapes} scrapes): intake ${metrics.on.requestsPerSecond} req/s with metrics vs ${metrics.off.requestsPerSecond} without, ratio ${metrics.throughputRatio}; CPU ${metrics.on.cpuMsPerRequest} vs ${metrics.off.cpuMsPerRequest} ms/request, ratio ${metrics.cpuRatio}\n`,
      );
    }
    for (const size of queue ?? []) {
      process.stdout.write(
        `\nqueue at ${size.transfers.toLocaleString()} transfers (ms; baseline: the bare keyset index read of the same page)\n`,
      );
      process.stdout.write(
        `${table([
          ["case", "p50", "p95", "baseline p50", "baseline p95", "ratio p50"],
          ...size.cases.map((c) => [
            c.name,
            String(c.p50),
            String(c.p95),
            String(c.baselineP50),
            String(c.baselineP95),
            String(c.ratio),
          ]),
        ])}\n`,
      );
      for (const c of size.cases) {
        const indexes = [
          ...new Set(
            c.plan.flatMap(
              (line) =>
                /(Index(?: Only)? Scan(?: Backward)? using \S+|Bitmap Index Scan on \S+|Seq Scan on \S+)/.exec(
                  line,
                )?.[1] ?? [],
            ),
          ),
        ];
        process.stdout.write(`  plan of ${c.name}: ${indexes.join(", ") || "(no plan captured)"}\n`);
      }
    }
    if (dashboard) {
      const d = dashboard;
      process.stdout.write(
        `\ndashboard in Chromium against npm start, ${d.transfersInTable.toLocaleString()} transfers seeded (${d.samples} samples after ${d.warmUp} warm-up; ms)\n`,
      );
      process.stdout.write(
        `${table([
          ["step", "p50", "p95", "max", "API call alone p50 / p95", "ratio p50", "requests"],
          [
            "queue row click -> usable review",
            String(d.open.ours.p50),
            String(d.open.ours.p95),
            String(d.open.ours.max),
            `${d.open.baseline.p50} / ${d.open.baseline.p95}`,
            String(d.open.ratio),
            String(d.open.requestsPerStep),
          ],
          [
            "confirm approval -> approved",
            String(d.approve.ours.p50),
            String(d.approve.ours.p95),
            String(d.approve.ours.max),
            `${d.approve.baseline.p50} / ${d.approve.baseline.p95}`,
            String(d.approve.ratio),
            String(d.approve.requestsPerStep),
          ],
        ])}\n`,
      );
      process.stdout.write(
        `(approval notice p50 / p95 ${d.approveNotice.p50} / ${d.approveNotice.p95} ms; server CPU ${d.serverCpuMsPerSample} ms per sample; load average ${d.loadAverage.start.join(" ")} -> ${d.loadAverage.end.join(" ")}; ${d.seconds} s in all, ${d.serverStartSeconds} s of it starting npm start)\n`,
      );
    }
    if (approvals) {
      process.stdout.write(
        `\napprovals at concurrency ${approvals.concurrency}, no worker (${approvals.rounds} alternating rounds of ${approvals.count}; median round)\n`,
      );
      process.stdout.write(
        `${table([
          ["figure", `${approvals.chains} audit chains`, "1 audit chain (before)", "ratio"],
          [
            "approvals/s",
            String(approvals.chained.approvalsPerSecond),
            String(approvals.single.approvalsPerSecond),
            String(approvals.ratio),
          ],
          [
            "approval p50 / p95 ms",
            `${approvals.chained.p50} / ${approvals.chained.p95}`,
            `${approvals.single.p50} / ${approvals.single.p95}`,
            "",
          ],
        ])}\n`,
      );
    }
    if (callbacks) {
      const c = callbacks;
      process.stdout.write(
        `\ncallbacks (${c.count} deliveries at concurrency ${c.concurrency}, batch size ${c.batchSize}; baseline: the same signed POSTs sent directly)\n`,
      );
      process.stdout.write(
        `${table([
          ["figure", "ours", "baseline", "ratio"],
          [
            "callbacks/s (a backlog drained)",
            String(c.ours.callbacksPerSecond),
            String(c.baseline.callbacksPerSecond),
            String(c.ratio),
          ],
          [
            `… one job per callback (batch size 1)`,
            String(c.oneJobPerCallback.callbacksPerSecond),
            "",
            String(Math.round((c.oneJobPerCallback.callbacksPerSecond / c.baseline.callbacksPerSecond) * 100) / 100),
          ],
          [
            `… baseline with ${c.baselineAtBatchInFlight.concurrency} POSTs in flight`,
            "",
            String(c.baselineAtBatchInFlight.callbacksPerSecond),
            String(Math.round((c.ours.callbacksPerSecond / c.baselineAtBatchInFlight.callbacksPerSecond) * 100) / 100),
          ],
          [
            "worker CPU ms / callback (ours: batched; right: batch 1)",
            String(c.batched.workerCpuMsPerCallback),
            String(c.oneJobPerCallback.workerCpuMsPerCallback),
            "",
          ],
          [
            "write transactions / callback (batched; batch 1)",
            String(c.batched.writeTransactionsPerCallback),
            String(c.oneJobPerCallback.writeTransactionsPerCallback),
            "",
          ],
          ...Object.entries(c.variants).map(([label, v]) => [
            `drain: ${label} (/s, worker CPU ms and write transactions per callback)`,
            String(v.perSecond),
            `${v.workerCpuMsPerCallback} ms, ${v.writeTransactionsPerCallback} tx`,
            String(Math.round((v.perSecond / c.baseline.callbacksPerSecond) * 100) / 100),
          ]),
          ["approvals + callbacks/s (end to end)", String(c.ours.approveAndDeliverPerSecond), "", ""],
          ...Object.entries(c.variants).map(([label, v]) => [
            `approve + deliver: ${label} (/s; callbacks per claim)`,
            String(v.approveAndDeliverPerSecond),
            String(v.callbacksPerClaim ?? ""),
            "",
          ]),
          ["approve-to-callback p50 ms", String(c.ours.latencyP50), String(c.baseline.latencyP50), ""],
          ["approve-to-callback p99 ms", String(c.ours.latencyP99), String(c.baseline.latencyP99), ""],
        ])}\n`,
      );
    }
    process.stdout.write(
      `\nmachine: ${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.memoryGiB} GiB, Node ${result.machine.node}, PostgreSQL ${pgVersion}\n`,
    );
    process.stdout.write(`written to ${path.relative(ROOT, file)}\n`);
    if (intake)
      process.stdout.write(
        `intake: ${intake.ours.requestsPerSecond} req/s vs baseline ${intake.baseline.requestsPerSecond} req/s, ratio ${intake.ratio}\n`,
      );
  } finally {
    await postgres.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
