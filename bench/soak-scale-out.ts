// `npm run soak -- --instances 2 --workers 1 [--quick | --seconds N]`: the soak across several instances.
// N `npm start` instances (each with its in-process worker) and M `npm run worker` processes on one
// PostgreSQL, behind a round-robin balancer in this process that spreads the senders and pharmacists over
// them. Under load: a random instance is SIGKILLed at random moments and restarted while the others serve,
// the standalone worker is SIGKILLed once (and restarted), the callback receiver goes away then fails, and one
// instance is stopped gracefully to see /readyz answer 503 while it drains and 200 once it is back. The checks
// are the soak's (bench/soak/checks.ts): every acknowledged transfer stored once, every acknowledged decision
// stored once (two pharmacists racing on one transfer land on different instances: claims and the decision's
// row lock hold across them), every decision's callback delivered. Ends with `soak: PASS …` or `soak: FAIL …`.
import { randomInt } from "node:crypto";
import { createWriteStream, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { disconnectDb } from "@/lib/db/prisma";
import { createMigratedDatabase, startTestPostgres, type TestPostgres } from "@/tests/support/database";
import { ensureBuild, freePort } from "@/tests/support/server";
import { startBalancer, type Balancer } from "./soak/balancer";
import { plainCheck, type Check } from "./soak/check-builder";
import { callbackProgress, loadChecks, runChecks } from "./soak/checks";
import { newDecisionStats, signIn, type DecisionTarget } from "./soak/pharmacists";
import { startSoakReceiver, type SoakReceiver } from "./soak/receiver";
import { newIntakeStats, type SentTransfer } from "./soak/senders";
import { printChecks, writeSoakResult } from "./soak/report";
import { readyStatus, soakServer, type SoakServer } from "./soak/server";
import { standaloneWorker, type StandaloneWorker } from "./soak/standalone-worker";
import { say, sleep } from "./soak/util";
import { createSoakCast, soakServerEnv, startSoakLoad } from "./soak/setup";
import { ROOT } from "./support";

const argv = process.argv.slice(2);
const numberArg = (name: string, fallback: number, min: number, max: number) => {
  const at = argv.indexOf(name);
  if (at < 0) return fallback;
  const n = Number(argv[at + 1]);
  if (!Number.isInteger(n) || n < min || n > max) {
    process.stderr.write(`${name} takes a whole number from ${min} to ${max}\n`);
    process.exit(2);
  }
  return n;
};
const quick = argv.includes("--quick");
const SETTINGS = {
  instances: numberArg("--instances", 2, 2, 6),
  workers: numberArg("--workers", 1, 0, 4),
  loadSeconds: numberArg("--seconds", quick ? 45 : 180, 30, 3600),
  senders: quick ? 6 : 10,
  pharmacists: 3,
  senderThinkMs: 20,
  pharmacistThinkMs: 60,
  kills: quick ? 2 : 5,
  receiverDown: quick ? 8 : 25,
  receiverFailing: quick ? 4 : 10,
  graceSeconds: 40,
  drainSeconds: quick ? 90 : 180,
  retryScale: "0.01",
};
const HARD_DEADLINE_MS = (SETTINGS.loadSeconds + SETTINGS.graceSeconds + SETTINGS.drainSeconds + 300) * 1000;
const step = (text: string) => process.stdout.write(`\n▶ ${text}\n`);

const servers: SoakServer[] = [];
const workers: StandaloneWorker[] = [];
let balancer: Balancer | null = null;
let receiver: SoakReceiver | null = null;
let postgres: TestPostgres | null = null;
let finishing = false;

async function cleanUp(): Promise<void> {
  await Promise.all(servers.map((s) => s.stop().catch(() => s.killNow())));
  await Promise.all(workers.map((w) => w.stop().catch(() => w.killNow())));
  await Promise.all(servers.map((s) => s.closeLog().catch(() => {})));
  await balancer?.close().catch(() => {});
  await receiver?.close().catch(() => {});
  await disconnectDb().catch(() => {});
  await postgres?.stop().catch(() => {});
}

async function abort(reason: string, code: number): Promise<never> {
  if (finishing) process.exit(code);
  finishing = true;
  say(`\nsoak: FAIL (${reason})`);
  for (const s of servers) s.killNow();
  for (const w of workers) w.killNow();
  await Promise.race([cleanUp(), sleep(20_000)]);
  process.exit(code);
}

export async function runScaleOutSoak(): Promise<void> {
  process.on("SIGINT", () => void abort("interrupted", 130));
  process.on("SIGTERM", () => void abort("terminated", 143));
  process.on("exit", () => {
    for (const s of servers) s.killNow();
    for (const w of workers) w.killNow();
  });
  const started = Date.now();
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const hardDeadline = setTimeout(
    () => void abort(`hard deadline of ${HARD_DEADLINE_MS / 1000} s passed`, 1),
    HARD_DEADLINE_MS,
  );
  step(
    `${quick ? "quick " : ""}scale-out soak: ${SETTINGS.instances} instances + ${SETTINGS.workers} standalone worker(s), ${SETTINGS.loadSeconds} s of load, ${SETTINGS.kills} instance kills`,
  );
  ensureBuild();

  step("PostgreSQL, receiver, partners, pharmacists");
  postgres = await startTestPostgres();
  const databaseUrl = await createMigratedDatabase(postgres.adminUrl, "rx_soak_scale");
  receiver = await startSoakReceiver();
  const { runTag, partners, pharmacists } = await createSoakCast({
    databaseUrl,
    receiverUrl: receiver.baseUrl,
    label: "Scale",
    pharmacistCount: SETTINGS.pharmacists,
  });

  step("instances, workers, balancer");
  const workDir = mkdtempSync(path.join(os.tmpdir(), "rx-soak-scale-"));
  const env = { ...soakServerEnv(databaseUrl, SETTINGS.retryScale), SHUTDOWN_DRAIN_SECONDS: "2" };
  for (let i = 0; i < SETTINGS.instances; i++) {
    servers.push(soakServer({ port: await freePort(), env, logFile: path.join(workDir, `instance-${i}.log`) }));
  }
  // One at a time: two first starts at once on 2 cores only slow each other down.
  for (const s of servers) say(`  instance on ${s.baseUrl} up in ${(await s.start()).toFixed(1)} s`);
  const workerLog = createWriteStream(path.join(workDir, "workers.log"), { flags: "a" });
  for (let i = 0; i < SETTINGS.workers; i++) {
    const w = standaloneWorker({ ...env, NODE_ENV: "production" }, workerLog);
    await w.start();
    workers.push(w);
  }
  say(`  ${workers.length} standalone worker(s) running; logs in ${workDir}`);
  balancer = await startBalancer(
    servers.map((s) => ({ port: Number(new URL(s.baseUrl).port), isUp: () => s.state() === "up" })),
    await freePort(),
  );
  const intake = newIntakeStats();
  const decisionStats = newDecisionStats();
  for (const p of pharmacists)
    if (!(await signIn(balancer.baseUrl, p, decisionStats))) throw new Error(`${p.email} could not sign in`);

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
  const kills: { instance: number; atSecond: number; downSeconds: number }[] = [];
  const workerKills: { atSecond: number }[] = [];
  const readiness: { instance: number; whileDraining: (number | "no answer")[]; afterRestart: number | "no answer" } = {
    instance: -1,
    whileDraining: [],
    afterRestart: "no answer",
  };

  step(
    `load for ${SETTINGS.loadSeconds} s through the balancer: ${SETTINGS.senders} senders, ${SETTINGS.pharmacists} pharmacists`,
  );
  const t0 = Date.now();
  const elapsed = () => (Date.now() - t0) / 1000;
  const stamp5 = () => `[${elapsed().toFixed(0).padStart(4)} s]`;
  const ticker = setInterval(() => {
    const acked = [...sent.values()].filter((t) => t.acked).length;
    say(
      `  ${stamp5()} acked ${acked}/${sent.size} | instances ${servers.map((s) => s.state()).join(",")} | receiver ${receiver!.mode()} | callbacks ${receiver!.deliveredIds().size} | per instance ${balancer!.perBackend().join("/")}`,
    );
  }, 5_000);
  const { senders: sendersDone, deciders: decidersDone } = startSoakLoad({
    baseUrl: balancer.baseUrl,
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
  const chaos = (async () => {
    // Kills of a random instance, spread over the load; never the last one up (the others serve meanwhile).
    const slot = (load * 0.8) / (SETTINGS.kills + 1);
    for (let k = 0; k < SETTINGS.kills; k++) {
      const at = load * 0.08 + slot * k + Math.random() * slot * 0.8;
      while (elapsed() < at) await sleep(100);
      const up = servers.map((s, i) => ({ s, i })).filter(({ s }) => s.state() === "up");
      if (up.length < 2) continue;
      const { s, i } = up[randomInt(0, up.length)]!;
      const atSecond = elapsed();
      await s.kill();
      say(`  ${stamp5()} ✗ instance ${i} SIGKILLed`);
      await sleep(randomInt(500, 3_000));
      await s.start();
      kills.push({
        instance: i,
        atSecond: Math.round(atSecond),
        downSeconds: Math.round((elapsed() - atSecond) * 10) / 10,
      });
      say(`  ${stamp5()} ✓ instance ${i} back`);
      if (k === 0 && workers[0]) {
        // The standalone worker, once, while callbacks are flowing.
        workerKills.push({ atSecond: Math.round(elapsed()) });
        await workers[0].kill();
        say(`  ${stamp5()} ✗ standalone worker SIGKILLed`);
        await sleep(1_000);
        await workers[0].start();
        say(`  ${stamp5()} ✓ standalone worker back`);
      }
    }
    // A graceful stop of one instance: /readyz 503 while it drains, then 200 after its restart.
    while (elapsed() < load * 0.9) await sleep(100);
    const i = servers.findIndex((s) => s.state() === "up");
    const s = servers[i]!;
    readiness.instance = i;
    const stopping = s.stop();
    for (let n = 0; n < 6; n++) {
      await sleep(250);
      readiness.whileDraining.push(await readyStatus(s.baseUrl));
    }
    await stopping;
    await s.start();
    readiness.afterRestart = await readyStatus(s.baseUrl);
    say(
      `  ${stamp5()} ~ instance ${i} stopped gracefully: /readyz ${readiness.whileDraining.join(",")} while draining, ${readiness.afterRestart} after restart`,
    );
  })();
  const outage = (async () => {
    const upAt = load * 0.8;
    const downAt = Math.max(2, upAt - SETTINGS.receiverDown - SETTINGS.receiverFailing);
    while (elapsed() < downAt) await sleep(100);
    await receiver!.setMode("down");
    say(`  ${stamp5()} ✗ receiver down`);
    while (elapsed() < downAt + SETTINGS.receiverDown) await sleep(100);
    await receiver!.setMode("failing");
    say(`  ${stamp5()} ~ receiver answering 500/503`);
    while (elapsed() < upAt) await sleep(100);
    await receiver!.setMode("up");
    say(`  ${stamp5()} ✓ receiver up`);
  })();

  while (elapsed() < load) await sleep(200);
  stopNew = true;
  giveUpAt = Date.now() + SETTINGS.graceSeconds * 1000;
  await Promise.all([chaos, outage]);
  await Promise.all([...sendersDone, ...decidersDone]);
  clearInterval(ticker);
  const loadEnded = Date.now();

  step(`waiting (up to ${SETTINGS.drainSeconds} s) for every decision's callback`);
  let drained = false;
  for (;;) {
    const progress = await callbackProgress(
      databaseUrl,
      partners.map((p) => p.partnerId),
    );
    const have = receiver.deliveredIds();
    const missing = progress.ids.filter((id) => !have.has(id)).length;
    if (missing === 0 && progress.ids.length === progress.decisions && progress.deliveredInDb === progress.ids.length) {
      drained = true;
      break;
    }
    if (Date.now() - loadEnded > SETTINGS.drainSeconds * 1000) {
      say(`  still missing ${missing} of ${progress.ids.length}`);
      break;
    }
    await sleep(1_000);
  }
  const drainSeconds = Math.round((Date.now() - loadEnded) / 1000);

  step("checks");
  const { checks, numbers } = await runChecks({
    databaseUrl,
    partners,
    sent,
    targets,
    deliveries: receiver.deliveries(),
  });
  const perInstance = balancer.perBackend();
  const extra: Check[] = [
    plainCheck(
      `instances were killed and restarted while the others served (${SETTINGS.kills} planned)`,
      kills.length >= Math.min(2, SETTINGS.kills),
      `${kills.length} kills`,
    ),
    plainCheck(
      "the standalone worker was killed and came back",
      SETTINGS.workers === 0 || workerKills.length === 1,
      `${workerKills.length} worker kills`,
    ),
    plainCheck(
      "every instance served requests",
      perInstance.every((n) => n > 0),
      perInstance.join("/"),
    ),
    plainCheck(
      "/readyz answered 503 while an instance drained, and 200 after its restart",
      readiness.whileDraining.includes(503) && readiness.afterRestart === 200,
      `${readiness.whileDraining.join(",")} then ${readiness.afterRestart}`,
    ),
    ...loadChecks({ drained, drainSeconds, intake, decisionStats, numbers }),
  ];
  const allChecks = [...checks, ...extra];
  const pass = allChecks.every((c) => c.ok);
  printChecks(allChecks);
  const result = {
    at: new Date(started).toISOString(),
    kind: "scale-out",
    quick,
    pass,
    settings: SETTINGS,
    seconds: { total: Math.round((Date.now() - started) / 1000), load, drain: drainSeconds },
    requestsPerInstance: perInstance,
    kills,
    workerKills,
    readiness,
    receiverOutageSeconds: receiver.outageSeconds(),
    intake,
    decisions: decisionStats,
    numbers,
    checks: allChecks,
  };
  const file = writeSoakResult(`soak-scale-out-${stamp}${quick ? "-quick" : ""}.json`, result);
  say(
    `\n  requests per instance ${perInstance.join(" / ")}; intake 200 ${intake.ok200}, 503 ${intake.status503}, connection errors ${intake.connectionErrors}, retries ${intake.retries}; ` +
      `decisions ${numbers.decisionsInDb} (${decisionStats.races} races); callbacks delivered ${numbers.callbacksDelivered}/${numbers.callbacksInDb}, duplicates ${numbers.duplicateDeliveries}, missing ${numbers.missingCallbacks}`,
  );
  say(`written to ${path.relative(ROOT, file)}; logs in ${workDir}`);
  clearTimeout(hardDeadline);
  finishing = true;
  await cleanUp();
  workerLog.end();
  say(
    pass
      ? `soak: PASS scale-out: ${SETTINGS.instances} instances + ${SETTINGS.workers} worker(s), ${numbers.transfersAcked} transfers acknowledged and stored once, ${numbers.decisionsInDb} decisions, ${numbers.callbacksDelivered} callbacks delivered, ${kills.length} instance kills, ${workerKills.length} worker kill(s), 0 missing`
      : `soak: FAIL scale-out: ${allChecks
          .filter((c) => !c.ok)
          .map((c) => c.name)
          .join("; ")}`,
  );
  process.exit(pass ? 0 : 1);
}
