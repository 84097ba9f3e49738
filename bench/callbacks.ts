// Callbacks: how many a worker delivers per second to a local receiver, and the time from an approval's
// commit to the callback's arrival. Baseline: the same signed POSTs sent straight from this process at
// the worker's concurrency, with no queue, no database and no retry bookkeeping.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { webhookHeaders } from "@/lib/callbacks/signature";
import type { SessionUser } from "@/lib/auth/require-user";
import { createPartner } from "@/lib/partners/create-partner";
import { buildTransferRequest } from "@/lib/transfers/fixtures";
import { approveTransfer } from "@/lib/transfers/approve-transfer";
import { receiveTransfer } from "@/lib/transfers/receive-transfer";
import { startCallbackReceiver, type CallbackReceiver } from "@/tests/support/callback-receiver";
import { TEST_SECRETS } from "@/tests/support/server";
import { percentile, progress, ROOT, startProcess, stopProcess } from "./support";

export type CallbacksResult = {
  count: number;
  concurrency: number;
  /** callbacksPerSecond: a backlog of approved transfers drained by a worker started after them (delivery alone). */
  ours: { callbacksPerSecond: number; approveAndDeliverPerSecond: number; latencyP50: number; latencyP99: number };
  baseline: { callbacksPerSecond: number; latencyP50: number; latencyP99: number };
  ratio: number;
};

export async function pendingTransfers(partnerId: string, pharmacyNpi: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const request = buildTransferRequest({}, { receivingNpi: pharmacyNpi });
    request.metadata.requestID = `cb-${randomBytes(6).toString("hex")}`;
    request.prescription.rxNumber = `CB${randomBytes(5).toString("hex")}`;
    const outcome = await receiveTransfer(partnerId, request);
    if (outcome.kind !== "created") throw new Error(`could not create a transfer: ${outcome.kind}`);
    ids.push(outcome.response.metadata.referenceID);
  }
  return ids;
}

/** Runs `fn` over `items`, at most `concurrency` at once. */
export async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

function arrivalOf(receiver: CallbackReceiver, cbPath: string, referenceID: string): number | undefined {
  return receiver.requests(cbPath).find((r) => (JSON.parse(r.body) as { metadata: { referenceID: string } }).metadata.referenceID === referenceID)?.at;
}

export async function benchCallbacks(opts: {
  databaseUrl: string;
  authSecret: string;
  pharmacyNpi: string;
  actor: SessionUser;
  count: number;
  latencySamples: number;
}): Promise<CallbacksResult> {
  const concurrency = 4; // WORKER_CONCURRENCY's default: the baseline gets the same
  const receiver = await startCallbackReceiver();
  await installJobQueue(opts.databaseUrl);
  const partner = await createPartner({ name: "Bench Callback Receiver", callbackUrl: `${receiver.baseUrl}/ours`, npis: [] });
  const startWorker = () =>
    startProcess(0, process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/worker.ts"], {
      DATABASE_URL: opts.databaseUrl,
      ...TEST_SECRETS,
      AUTH_SECRET: opts.authSecret,
      CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
      CALLBACK_ALLOW_INSECURE_HTTP: "true",
      WORKER_CONCURRENCY: String(concurrency),
      LOG_LEVEL: "warn",
    });
  let worker = startWorker();
  const approve = (id: string) => approveTransfer({ transferId: id, actor: opts.actor, clientAddress: "127.0.0.1", approval: { oneTimeTransferConfirmed: true } });
  try {
    // Warm-up, which also waits for the worker to be up.
    const [warm] = await pendingTransfers(partner.partnerId, opts.pharmacyNpi, 1);
    await approve(warm!);
    await receiver.waitFor("/ours", 1, 60_000);

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

    done = progress(`callbacks: ${opts.count} approvals at ${concurrency} at once, delivered as they come`, 1);
    let ids = await pendingTransfers(partner.partnerId, opts.pharmacyNpi, opts.count);
    let already = receiver.requests("/ours").length;
    const started = Date.now();
    await pool(ids, concurrency, async (id) => void (await approve(id)));
    let arrived = await receiver.waitFor("/ours", already + opts.count, 120_000);
    const endToEndRate = opts.count / ((Math.max(...arrived.slice(already).map((r) => r.at)) - started) / 1000);
    done();

    // Delivery alone: the approvals are made while no worker runs, then a worker drains the backlog; timed
    // from the first arrival to the last, so neither the approvals nor the worker's start count.
    done = progress(`callbacks: a backlog of ${opts.count} drained by a worker`, 1);
    await stopProcess(worker);
    ids = await pendingTransfers(partner.partnerId, opts.pharmacyNpi, opts.count);
    await pool(ids, concurrency, async (id) => void (await approve(id)));
    already = receiver.requests("/ours").length;
    worker = startWorker();
    arrived = (await receiver.waitFor("/ours", already + opts.count, 180_000)).slice(already);
    const times = arrived.map((r) => r.at);
    const oursRate = (opts.count - 1) / ((Math.max(...times) - Math.min(...times)) / 1000);
    done();

    done = progress(`callbacks baseline: ${opts.count} signed POSTs sent directly`, 1);
    const payloads = arrived.map((r) => r.body);
    const baseLatencies: number[] = [];
    const baseStarted = Date.now();
    await pool(payloads, concurrency, async (body) => {
      const t = Date.now();
      const res = await fetch(`${receiver.baseUrl}/baseline`, {
        method: "POST",
        headers: { "content-type": "application/json", ...webhookHeaders({ id: `msg_${randomBytes(8).toString("hex")}`, timestamp: Math.floor(t / 1000), body, secrets: [partner.webhookSecret] }) },
        body,
      });
      await res.arrayBuffer();
      baseLatencies.push(Date.now() - t);
    });
    const baseRate = opts.count / ((Date.now() - baseStarted) / 1000);
    done();

    return {
      count: opts.count,
      concurrency,
      ours: { callbacksPerSecond: Math.round(oursRate), approveAndDeliverPerSecond: Math.round(endToEndRate), latencyP50: percentile(latencies, 50), latencyP99: percentile(latencies, 99) },
      baseline: { callbacksPerSecond: Math.round(baseRate), latencyP50: percentile(baseLatencies, 50), latencyP99: percentile(baseLatencies, 99) },
      ratio: Math.round((oursRate / baseRate) * 100) / 100,
    };
  } finally {
    await stopProcess(worker);
    await receiver.close();
  }
}
