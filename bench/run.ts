// `npm run bench [-- --quick] [--only intake|queue|callbacks|approvals|metrics|dashboard|overview|scale]`: every figure beside its
// baseline, measured in the same run, reported as a ratio; a table on stdout and the whole result as JSON in
// bench/results/. --quick is the smoke run the test suite uses (short runs, small data); --only measures one
// part. `scale` (5 000 000 transfers: bench/scale.ts) runs only when asked: `--only scale`, or `--scale` with the
// rest, and last (its restore replaces the database).
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { enableQueryEvents } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { createUser } from "@/lib/users/create-user";
import { createPartner } from "@/lib/partners/create-partner";
import { DEMO_PHARMACY_NPI } from "@/lib/demo/sample-transfers";
import { createMigratedDatabase, startTestPostgres } from "@/tests/support/database";
import { ensureBuild, TEST_SECRETS } from "@/tests/support/server";
import { benchIntake, type IntakeResult } from "./intake";
import { benchIntakeImmediate } from "./intake-immediate";
import { benchMetricsOverhead, type MetricsOverheadResult } from "./metrics-overhead";
import { benchApprovals, type ApprovalsResult } from "./approvals";
import { benchCallbacks, type CallbacksResult } from "./callbacks";
import { benchDashboard } from "./dashboard";
import type { DashboardResult } from "./dashboard-result";
import { benchOverview, type OverviewBenchResult } from "./overview";
import { benchQueue, type QueueSize } from "./queue";
import { benchScale, type ScaleResult } from "./scale";
import { seedTransfers } from "./seed-transfers";
import { printTables } from "./print-tables";
import { gib, scaleDisk } from "./scale-disk";
import { runOptions } from "./run-options";
import { ROOT, setBenchEnv } from "./support";

/** Read before setBenchEnv points DATABASE_URL at the bench's own database: is the server someone else's? */
const externalDatabase = Boolean(process.env.DATABASE_URL);
const {
  quick,
  only,
  runs,
  immediate,
  immediateOnly,
  intakeBefore,
  callbacksBefore,
  callbacksSweep,
  scaleTransfers,
  settings,
  queueSizes,
  queueRuns,
  approvalSettings,
  dashboardSettings,
  overviewSettings,
  callbackSettings,
} = runOptions(process.argv);

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

async function databaseBytes(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ b: string }>("SELECT pg_database_size(current_database())::text AS b");
    return Number(rows[0]!.b);
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
    setBenchEnv(databaseUrl);
    enableQueryEvents();
    const partner = await createPartner({ name: "Bench Sender", callbackUrl: "http://127.0.0.1:9/unused", npis: [] });
    const pgVersion = await serverVersion(databaseUrl);

    let intake: IntakeResult | undefined;
    if (runs("intake") && !immediateOnly) {
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
    // Intake with a store's immediate-confirmation policy on vs off (bench/intake-immediate.ts); skip: --no-immediate.
    const intakeImmediate =
      runs("intake") && immediate
        ? (step("intake: immediate confirmation on vs off, alternating rounds"),
          await benchIntakeImmediate({
            databaseUrl,
            authSecret,
            apiKey: partner.apiKey,
            pharmacyNpi: DEMO_PHARMACY_NPI,
            ...settings,
          }))
        : undefined;

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
    const queueAt = async (transfers: number, seedSeconds: number): Promise<QueueSize> => ({
      transfers,
      seedSeconds,
      databaseBytes: await databaseBytes(databaseUrl),
      cases: await benchQueue({ databaseUrl, partnerId: partner.partnerId, actor, runs: queueRuns }),
    });
    let queue: QueueSize[] | undefined;
    if (runs("queue")) {
      queue = [];
      for (const size of queueSizes) {
        step(`queue at ${size.toLocaleString()} transfers`);
        queue.push(await queueAt(size, await seedTransfers(databaseUrl, partner.partnerId, size)));
      }
    }

    // The dashboard in Chromium over the table as it stands, signed in as a pharmacist of its own.
    const dashboardAt = async (transfers: number): Promise<DashboardResult> => {
      step(
        `dashboard in Chromium over ${transfers.toLocaleString()} transfers: ${dashboardSettings.warmUp} warm-up + ${dashboardSettings.samples} samples`,
      );
      const pharmacist = {
        email: `bench-dashboard-${randomBytes(4).toString("hex")}@pharmacy.test`,
        password: randomBytes(12).toString("base64url"),
        name: "Dana Bench, PharmD",
      };
      await createUser({ ...pharmacist, role: "pharmacist" });
      return benchDashboard({
        databaseUrl,
        apiKey: partner.apiKey,
        pharmacyNpi: DEMO_PHARMACY_NPI,
        transfersInTable: transfers,
        pharmacist,
        ...dashboardSettings,
      });
    };

    let dashboard: DashboardResult | undefined;
    if (runs("dashboard")) {
      const size = queueSizes[queueSizes.length - 1]!;
      if (!queue) await seedTransfers(databaseUrl, partner.partnerId, size);
      dashboard = await dashboardAt(size);
    }

    // The overview's server time over 1,000,000 transfers of its own (bench/overview.ts).
    let overview: OverviewBenchResult | undefined;
    if (runs("overview")) {
      const { transfers } = overviewSettings;
      step(`overview: getOverview over ${transfers.toLocaleString()} transfers, without and with the rollups`);
      overview = await benchOverview({ adminUrl: postgres.adminUrl, ...overviewSettings });
      process.stdout.write(`  ${JSON.stringify(overview)}\n`);
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

    let scale: ScaleResult | undefined;
    if (runs("scale")) {
      const disk = scaleDisk(scaleTransfers, externalDatabase);
      const needs = `${scaleTransfers.toLocaleString()} transfers need about ${gib(disk.needBytes)} of disk at ${disk.where}`;
      if (disk.freeBytes !== null && disk.freeBytes < disk.needBytes) {
        const skipped = `${needs}; ${gib(disk.freeBytes)} is free there. Free some, or point TMPDIR (or DATABASE_URL) at a larger disk.`;
        step(`scale: skipped. ${skipped}`);
        scale = { ...disk, skipped };
      } else {
        step(
          `scale: ${scaleTransfers.toLocaleString()} transfers (${needs}${disk.freeBytes === null ? ", not checked" : `; ${gib(disk.freeBytes)} free`})`,
        );
        scale = await benchScale(scaleTransfers, disk, {
          databaseUrl,
          partnerId: partner.partnerId,
          step,
          // Short rounds, the same at both sizes.
          intake: () =>
            benchIntake({
              databaseUrl,
              authSecret,
              apiKey: partner.apiKey,
              pharmacyNpi: DEMO_PHARMACY_NPI,
              ...settings,
              seconds: Math.min(10, settings.seconds),
            }),
          queue: queueAt,
          dashboard: dashboardAt,
        });
      }
    }

    const result = {
      at: new Date().toISOString(),
      quick,
      only,
      machine: { ...machine(), postgres: pgVersion },
      intake,
      intakeImmediate,
      queue,
      scale,
      dashboard,
      overview,
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

    printTables({ intake, metrics, queue, dashboard, approvals, callbacks, scale });
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
