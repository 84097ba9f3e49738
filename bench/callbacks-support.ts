// The callbacks bench's parts that are not its measuring loop (bench/callbacks.ts): transfers to approve, a
// bounded pool, arrivals, transaction ids, the direct-POST baseline and the worker's claim counts.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { webhookHeaders } from "@/lib/callbacks/signature";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { receiveTransfer } from "@/lib/transfers/intake";
import type { CallbackReceiver } from "@/tests/support/callback-receiver";

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
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export function arrivalOf(receiver: CallbackReceiver, cbPath: string, referenceID: string): number | undefined {
  return receiver
    .requests(cbPath)
    .find((r) => (JSON.parse(r.body) as { metadata: { referenceID: string } }).metadata.referenceID === referenceID)
    ?.at;
}

/** The next transaction id the database will hand out: write transactions used between two readings. */
export async function nextTransactionId(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ next: string }>("SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next");
  return Number(rows[0]!.next);
}

export async function directPosts(
  bodies: string[],
  concurrency: number,
  url: string,
  secret: string,
): Promise<{ perSecond: number; latencies: number[] }> {
  const latencies: number[] = [];
  const started = Date.now();
  await pool(bodies, concurrency, async (body) => {
    const t = Date.now();
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...webhookHeaders({
          id: `msg_${randomBytes(8).toString("hex")}`,
          timestamp: Math.floor(t / 1000),
          body,
          secrets: [secret],
        }),
      },
      body,
    });
    await res.arrayBuffer();
    latencies.push(Date.now() - t);
  });
  return { perSecond: bodies.length / ((Date.now() - started) / 1000), latencies };
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

/** The worker's claim statements so far and the callbacks they claimed; null when it has no such metric. */
export async function claimCounts(metricsPort: number): Promise<{ count: number; sum: number } | null> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const value = (name: string) =>
    text
      .split("\n")
      .find((line) => line.startsWith(`${name} `))
      ?.split(" ")[1];
  const [count, sum] = [value("rx_callback_batch_size_count"), value("rx_callback_batch_size_sum")];
  return count === undefined || sum === undefined ? null : { count: Number(count), sum: Number(sum) };
}
