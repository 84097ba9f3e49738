// Callbacks: how many a worker delivers per second to a local receiver, and the time from an approval's
// commit to the callback's arrival. Baseline: the same signed POSTs sent straight from this process at
// the worker's concurrency, with no queue, no database and no retry bookkeeping.
//
// The drained backlog is measured in rounds that alternate the worker's CALLBACK_BATCH_SIZE between 1 (one
// job per callback: the delivery path before batching) and the default, in one run; each round also reports
// the worker's CPU per callback (its process tree, from /proc) and the database's write transactions per
// callback (transaction ids used), which move much less than callbacks/s on a shared machine. The baseline
// runs in every round too, and each figure is the median of its rounds. A backlog is 2 000 callbacks: one of
// 500 drained in half a second, much of it a fresh worker's first batches.
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import type { SessionUser } from "@/lib/auth/require-user";
import { createPartner } from "@/lib/partners/create-partner";
import { approveTransfer } from "@/lib/transfers/decision";
import { startCallbackReceiver } from "@/tests/support/callback-receiver";
import { freePort, TEST_SECRETS } from "@/tests/support/server";
import {
  arrivalOf,
  claimCounts,
  directPosts,
  nextTransactionId,
  pendingTransfers,
  pool,
  round2,
} from "./callbacks-support";
import { median, percentile, processTreeCpuMs, progress, ROOT, startProcess, stopProcess } from "./support";

/** A worker the drain rounds alternate over: this checkout's or an older one's (an A/B), at given settings. */
export type WorkerVariant = {
  label: string;
  checkout: string;
  batchSize: number;
  concurrency: number;
  /** More of the worker's settings (CALLBACK_GATHER_MS in a sweep). */
  env?: Record<string, string>;
};

/** CALLBACKS_CPU_PROF_DIR=<dir>: each worker writes a V8 CPU profile to <dir>/<its label> when it stops. */
function profiledFlags(label: string): string[] {
  const profileDir = process.env.CALLBACKS_CPU_PROF_DIR;
  return profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir, label.replace(/\W+/g, "-"))}`] : [];
}

export type DrainRound = {
  label: string;
  batchSize: number;
  concurrency: number;
  perSecond: number;
  workerCpuMsPerCallback: number;
  writeTransactionsPerCallback: number;
  loadAverage: number;
};

export type EndToEndRound = {
  label: string;
  perSecond: number;
  /** Callbacks per claim statement (the worker's rx_callback_batch_size); null for a worker without it. */
  callbacksPerClaim: number | null;
  loadAverage: number;
};

export type CallbacksResult = {
  count: number;
  concurrency: number;
  /** The worker's CALLBACK_BATCH_SIZE (its default) for every figure but the drain rounds with batch size 1. */
  batchSize: number;
  /** callbacksPerSecond: a backlog of approved transfers drained by a worker started after them (delivery alone), median of the rounds at `batchSize`. */
  ours: { callbacksPerSecond: number; approveAndDeliverPerSecond: number; latencyP50: number; latencyP99: number };
  /** The same backlogs drained with one job per callback (CALLBACK_BATCH_SIZE=1), alternating with the above. */
  oneJobPerCallback: {
    callbacksPerSecond: number;
    workerCpuMsPerCallback: number;
    writeTransactionsPerCallback: number;
  };
  batched: { workerCpuMsPerCallback: number; writeTransactionsPerCallback: number };
  drainRounds: DrainRound[];
  /** Approve + deliver rounds, alternating the same workers. */
  endToEndRounds: EndToEndRound[];
  /** Per variant (its label), medians of its rounds. */
  variants: Record<
    string,
    {
      perSecond: number;
      workerCpuMsPerCallback: number;
      writeTransactionsPerCallback: number;
      approveAndDeliverPerSecond: number;
      /** While approvals stream in, median of its rounds; null without the metric. */
      callbacksPerClaim: number | null;
    }
  >;
  baseline: { callbacksPerSecond: number; latencyP50: number; latencyP99: number };
  /** The baseline's rate in each round (its figure is their median). */
  baselineRounds: number[];
  /** The baseline again with as many POSTs in flight as a batching worker can have (concurrency × batch size). */
  baselineAtBatchInFlight: { concurrency: number; callbacksPerSecond: number };
  ratio: number;
};

export async function benchCallbacks(opts: {
  databaseUrl: string;
  authSecret: string;
  pharmacyNpi: string;
  actor: SessionUser;
  count: number;
  latencySamples: number;
  /** Drain rounds and approve + deliver rounds per worker variant, alternating. */
  drainRounds: number;
  batchSize: number;
  /** More workers in the drain rounds beside batch 1 and the default: older checkouts, other settings. */
  extraVariants?: WorkerVariant[];
}): Promise<CallbacksResult> {
  const concurrency = 4; // WORKER_CONCURRENCY's default: the baseline gets the same
  const receiver = await startCallbackReceiver();
  await installJobQueue(opts.databaseUrl);
  const partner = await createPartner({
    name: "Bench Callback Receiver",
    callbackUrl: `${receiver.baseUrl}/ours`,
    npis: [],
  });
  // An older checkout's worker runs its own code with its own tsconfig paths (and this checkout's tsx).
  const startWorker = (v: WorkerVariant, metricsPort?: number) =>
    startProcess(
      0,
      process.execPath,
      [
        path.join(ROOT, "node_modules/tsx/dist/cli.mjs"),
        ...profiledFlags(v.label),
        "--tsconfig",
        path.join(v.checkout, "tsconfig.json"),
        path.join(v.checkout, "scripts/worker.ts"),
      ],
      {
        DATABASE_URL: opts.databaseUrl,
        ...TEST_SECRETS,
        AUTH_SECRET: opts.authSecret,
        CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
        CALLBACK_ALLOW_INSECURE_HTTP: "true",
        WORKER_CONCURRENCY: String(v.concurrency),
        CALLBACK_BATCH_SIZE: String(v.batchSize),
        LOG_LEVEL: "warn",
        ...(metricsPort && { METRICS_PORT: String(metricsPort) }),
        ...v.env,
      },
    );
  const variants: WorkerVariant[] = [
    { label: "batch 1", checkout: ROOT, batchSize: 1, concurrency },
    { label: `batch ${opts.batchSize}`, checkout: ROOT, batchSize: opts.batchSize, concurrency },
    ...(opts.extraVariants ?? []),
  ];
  let worker = startWorker(variants[1]!);
  const stats = new pg.Client({ connectionString: opts.databaseUrl });
  await stats.connect();
  const approve = (id: string) =>
    approveTransfer({
      transferId: id,
      actor: opts.actor,
      clientAddress: "127.0.0.1",
      approval: { oneTimeTransferConfirmed: true },
    });
  const warmUp = async () => {
    const [warm] = await pendingTransfers(partner.partnerId, opts.pharmacyNpi, 1);
    const before = receiver.requests("/ours").length;
    await approve(warm!);
    await receiver.waitFor("/ours", before + 1, 60_000);
  };
  try {
    // Warm-up, which also waits for the worker to be up.
    await warmUp();

    let done = progress(`callbacks: approve-to-arrival latency, ${opts.latencySamples} one at a time`, 1);
    const latencies: number[] = [];
    for (const id of await pendingTransfers(partner.partnerId, opts.pharmacyNpi, opts.latencySamples)) {
      await approve(id);
      const committed = Date.now();
      const before = receiver.requests("/ours").length;
      await receiver.waitFor("/ours", before + 1, 30_000);
      latencies.push(arrivalOf(receiver, "/ours", id)! - committed);
    }
    done();
    await stopProcess(worker);

    // Approvals at concurrency 4 while a worker delivers, to the last arrival: in rounds that alternate the
    // workers (this checkout's at batch 1 and at the default, and any others), the approvals being this
    // checkout's in every round.
    const endToEndRounds: EndToEndRound[] = [];
    for (let round = 0; round < opts.drainRounds; round++) {
      for (const variant of variants) {
        done = progress(
          `callbacks: ${opts.count} approvals at ${concurrency} at once, delivered as they come, ${variant.label} (round ${round + 1})`,
          1,
        );
        const metricsPort = await freePort();
        worker = startWorker(variant, metricsPort);
        await warmUp();
        const claimsBefore = await claimCounts(metricsPort);
        const ids = await pendingTransfers(partner.partnerId, opts.pharmacyNpi, opts.count);
        const already = receiver.requests("/ours").length;
        const started = Date.now();
        await pool(ids, concurrency, async (id) => void (await approve(id)));
        const arrived = (await receiver.waitFor("/ours", already + opts.count, 120_000)).slice(already);
        const last = Math.max(...arrived.map((r) => r.at));
        const claimsAfter = await claimCounts(metricsPort);
        endToEndRounds.push({
          label: variant.label,
          perSecond: Math.round(opts.count / ((last - started) / 1000)),
          // None for a worker without the metric, or one that claimed nothing in batches (batch size 1).
          callbacksPerClaim:
            claimsBefore && claimsAfter && claimsAfter.count > claimsBefore.count
              ? round2((claimsAfter.sum - claimsBefore.sum) / (claimsAfter.count - claimsBefore.count))
              : null,
          loadAverage: round2(os.loadavg()[0]!),
        });
        await stopProcess(worker);
        done();
      }
    }

    // Delivery alone: the approvals are made while no worker runs, then a worker drains the backlog; timed
    // from the first arrival to the last, so neither the approvals nor the worker's start count.
    const rounds: DrainRound[] = [];
    const baseRates: number[] = [];
    const wideRates: number[] = [];
    const baseLatencies: number[] = [];
    const secret = partner.webhookSecret;
    let bodies: string[] = [];
    for (let round = 0; round < opts.drainRounds; round++) {
      for (const variant of variants) {
        done = progress(
          `callbacks: a backlog of ${opts.count} drained by a worker, ${variant.label} (round ${round + 1})`,
          1,
        );
        const backlog = await pendingTransfers(partner.partnerId, opts.pharmacyNpi, opts.count);
        await pool(backlog, concurrency, async (id) => void (await approve(id)));
        const before = receiver.requests("/ours").length;
        worker = startWorker(variant);
        await receiver.waitFor("/ours", before + 1, 180_000);
        const [cpuFirst, xidFirst] = [processTreeCpuMs(worker.pid!), await nextTransactionId(stats)];
        const drained = (await receiver.waitFor("/ours", before + opts.count, 180_000)).slice(before);
        const [cpuLast, xidLast] = [processTreeCpuMs(worker.pid!), await nextTransactionId(stats)];
        await stopProcess(worker);
        const times = drained.map((r) => r.at);
        rounds.push({
          label: variant.label,
          batchSize: variant.batchSize,
          concurrency: variant.concurrency,
          perSecond: Math.round((opts.count - 1) / ((Math.max(...times) - Math.min(...times)) / 1000)),
          workerCpuMsPerCallback: round2((cpuLast - cpuFirst) / (opts.count - 1)),
          // Less the two readings' own.
          writeTransactionsPerCallback: round2((xidLast - xidFirst - 1) / (opts.count - 1)),
          loadAverage: round2(os.loadavg()[0]!),
        });
        bodies = drained.map((r) => r.body);
        done();
      }
      // The baseline in every round too, between the workers' rounds (one reading at the end moved by a third
      // from run to run): the same signed bodies straight from this process, at the worker's concurrency and at
      // as many in flight as a batching worker can have.
      done = progress(`callbacks baseline: ${opts.count} signed POSTs sent directly (round ${round + 1})`, 1);
      const base = await directPosts(bodies, concurrency, `${receiver.baseUrl}/baseline`, secret);
      baseRates.push(base.perSecond);
      baseLatencies.push(...base.latencies);
      wideRates.push(
        (await directPosts(bodies, concurrency * opts.batchSize, `${receiver.baseUrl}/baseline`, secret)).perSecond,
      );
      done();
    }
    const endToEnd = (label: string) => median(endToEndRounds.filter((r) => r.label === label).map((r) => r.perSecond));
    const claimsOf = (label: string) => {
      const measured = endToEndRounds.flatMap((r) =>
        r.label === label && r.callbacksPerClaim !== null ? [r.callbacksPerClaim] : [],
      );
      return measured.length > 0 ? median(measured) : null;
    };
    const summary = (label: string) => {
      const mine = rounds.filter((r) => r.label === label);
      return {
        callbacksPerSecond: median(mine.map((r) => r.perSecond)),
        workerCpuMsPerCallback: median(mine.map((r) => r.workerCpuMsPerCallback)),
        writeTransactionsPerCallback: median(mine.map((r) => r.writeTransactionsPerCallback)),
      };
    };

    const batched = summary(variants[1]!.label);
    return {
      count: opts.count,
      concurrency,
      batchSize: opts.batchSize,
      ours: {
        callbacksPerSecond: batched.callbacksPerSecond,
        approveAndDeliverPerSecond: endToEnd(variants[1]!.label),
        latencyP50: percentile(latencies, 50),
        latencyP99: percentile(latencies, 99),
      },
      oneJobPerCallback: summary(variants[0]!.label),
      batched: {
        workerCpuMsPerCallback: batched.workerCpuMsPerCallback,
        writeTransactionsPerCallback: batched.writeTransactionsPerCallback,
      },
      drainRounds: rounds,
      endToEndRounds,
      variants: Object.fromEntries(
        variants.map((v) => {
          const m = summary(v.label);
          return [
            v.label,
            {
              perSecond: m.callbacksPerSecond,
              workerCpuMsPerCallback: m.workerCpuMsPerCallback,
              writeTransactionsPerCallback: m.writeTransactionsPerCallback,
              approveAndDeliverPerSecond: endToEnd(v.label),
              callbacksPerClaim: claimsOf(v.label),
            },
          ];
        }),
      ),
      baseline: {
        callbacksPerSecond: Math.round(median(baseRates)),
        latencyP50: percentile(baseLatencies, 50),
        latencyP99: percentile(baseLatencies, 99),
      },
      baselineRounds: baseRates.map(Math.round),
      baselineAtBatchInFlight: {
        concurrency: concurrency * opts.batchSize,
        callbacksPerSecond: Math.round(median(wideRates)),
      },
      ratio: round2(batched.callbacksPerSecond / median(baseRates)),
    };
  } finally {
    await stopProcess(worker);
    await stats.end();
    await receiver.close();
  }
}
