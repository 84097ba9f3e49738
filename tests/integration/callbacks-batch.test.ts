// A partner's backlog sent by batching jobs (CALLBACK_BATCH_SIZE > 1: lib/callbacks/drain-callbacks.ts), by
// `npm run worker` processes against a real PostgreSQL and a real HTTP receiver: each callback's attempts
// are its own (one attempt row each, failures on their own Retry-After), and a worker killed with a batch
// in flight loses none of it.
import { afterAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { verifyStandardWebhook } from "@/tests/support/callback-receiver";
import { freePort } from "@/tests/support/server";
import { connectTestEnvironment } from "@/tests/support/integration";
import {
  createCallbackPartner,
  ownCallbackDatabase,
  decideTransfer,
  startWorkerProcess,
  waitUntil,
  type WorkerProcess,
} from "./callbacks-fixtures";

const FAST = {
  CALLBACK_RETRY_SCALE: "0.05",
  CALLBACK_TIMEOUT_MS: "1500",
  WORKER_POLL_INTERVAL_MS: "100",
  CALLBACK_BATCH_SIZE: "5",
};

connectTestEnvironment();
const own = ownCallbackDatabase("rx_callbacks_batch");
const authSecret = inject("authSecret");
const workers: WorkerProcess[] = [];

afterAll(async () => {
  for (const w of workers) await w.kill();
});

const requestsById = (path: string) => {
  const byId = new Map<string, { at: number; status?: number }[]>();
  for (const r of own.receiver.requests(path)) {
    const id = String(r.headers["webhook-id"]);
    byId.set(id, [...(byId.get(id) ?? []), { at: r.at }]);
  }
  return byId;
};

const allDelivered = (ids: string[]) => async () =>
  (await db().callback.count({ where: { id: { in: ids }, status: "DELIVERED" } })) === ids.length;

describe("a partner's backlog sent in batches", () => {
  it("sends each callback once per attempt, several per job, and a failed one waits its own Retry-After", async () => {
    for (const w of workers.splice(0)) await w.stop();
    // The first ten answers alternate success and 503 + Retry-After: 2; every later one is a success.
    own.receiver.script("/batch", [
      ...Array.from({ length: 5 }, () => [{ status: 204 }, { status: 503, headers: { "retry-after": "2" } }]).flat(),
      { status: 204 },
    ]);
    const partner = await createCallbackPartner(`${own.receiver.baseUrl}/batch`);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push((await decideTransfer({ partner, decision: i % 3 ? "CONFIRMED" : "ERROR" })).callbackId);
    workers.push(await startWorkerProcess({ databaseUrl: own.databaseUrl, authSecret, env: FAST }));
    await waitUntil("all delivered", allDelivered(ids), 30_000);
    await new Promise((r) => setTimeout(r, 500)); // anything sent twice would have arrived by now

    const requests = own.receiver.requests("/batch");
    expect(requests.every((r) => verifyStandardWebhook(r, partner.webhookSecret))).toBe(true);
    const attempts = await db().callbackAttempt.findMany({
      where: { callbackId: { in: ids } },
      orderBy: [{ callbackId: "asc" }, { attemptNumber: "asc" }],
    });
    const byId = requestsById("/batch");
    expect([...byId.keys()].sort()).toEqual([...ids].sort());
    let retried = 0;
    for (const id of ids) {
      const mine = attempts.filter((a) => a.callbackId === id);
      const sent = byId.get(id)!;
      // One request per attempt row, numbered from 1, and only the last one a success.
      expect(sent).toHaveLength(mine.length);
      expect(mine.map((a) => a.attemptNumber)).toEqual(mine.map((_, i) => i + 1));
      expect(mine.at(-1)!.statusCode).toBe(204);
      if (mine.length > 1) {
        retried++;
        expect(mine.map((a) => a.statusCode)).toEqual([503, 204]);
        expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(2000 - 20);
      }
    }
    expect(retried).toBe(5);
    // Batched: the first attempts were claimed by fewer statements than there are callbacks (a batch's claims share their start).
    const firstStarts = new Set(attempts.filter((a) => a.attemptNumber === 1).map((a) => a.startedAt.getTime()));
    expect(firstStarts.size).toBeLessThan(ids.length);
    expect(
      await db().$queryRaw<
        { n: number }[]
      >`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ANY(${ids}::text[])`,
    ).toEqual([{ n: 0 }]);
  });

  it("claims the jobs a worker starts together in one statement (rx_callback_batch_size on its metrics)", async () => {
    for (const w of workers.splice(0)) await w.stop();
    // Four callbacks whose jobs the worker's first fetch takes at once (its local queue holds 5): each job's
    // own claim could take none of the others, which are locked by that fetch; gathered, one claim takes all.
    const partner = await createCallbackPartner(`${own.receiver.baseUrl}/gathered`);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await decideTransfer({ partner, decision: "CONFIRMED" })).callbackId);
    const metricsPort = await freePort();
    workers.push(
      await startWorkerProcess({
        databaseUrl: own.databaseUrl,
        authSecret,
        env: { ...FAST, METRICS_PORT: String(metricsPort) },
      }),
    );
    await waitUntil("all delivered", allDelivered(ids), 30_000);
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(metrics)?.[1]);
    expect({ claims: value("rx_callback_batch_size_count"), claimed: value("rx_callback_batch_size_sum") }).toEqual({
      claims: 1,
      claimed: 4,
    });
    expect(own.receiver.requests("/gathered")).toHaveLength(4);
  });

  it("claims a partner's next batch while the last is in flight, never more than two batches at once", async () => {
    for (const w of workers.splice(0)) await w.stop();
    // Every answer takes 400 ms; one job at a time, so each claim takes at most a batch (5).
    own.receiver.script("/pipelined", [{ status: 204, delayMs: 400 }]);
    const partner = await createCallbackPartner(`${own.receiver.baseUrl}/pipelined`);
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push((await decideTransfer({ partner, decision: "CONFIRMED" })).callbackId);
    workers.push(
      await startWorkerProcess({
        databaseUrl: own.databaseUrl,
        authSecret,
        env: { ...FAST, WORKER_CONCURRENCY: "1" },
      }),
    );
    await waitUntil("all delivered", allDelivered(ids), 30_000);
    await new Promise((r) => setTimeout(r, 500)); // anything sent twice would have arrived by now

    const byId = requestsById("/pipelined");
    expect([...byId.keys()].sort()).toEqual([...ids].sort());
    expect([...byId.values()].every((sent) => sent.length === 1)).toBe(true);
    // A claim's attempts share its start: the claims in order.
    const attempts = await db().callbackAttempt.findMany({ where: { callbackId: { in: ids } } });
    const claims = [...new Set(attempts.map((a) => a.startedAt.getTime()))].sort((a, b) => a - b);
    expect(claims.length).toBeGreaterThanOrEqual(3);
    // The second claim went out while the first batch's answers were still 400 ms away; the third waited
    // for them.
    expect(claims[1]! - claims[0]!).toBeLessThan(300);
    expect(claims[2]! - claims[0]!).toBeGreaterThanOrEqual(400);
    // At no moment more than two batches' requests unanswered at the receiver.
    const arrivals = own.receiver.requests("/pipelined").map((r) => r.at);
    const inFlight = arrivals.map((at) => arrivals.filter((other) => other <= at && other > at - 400).length);
    expect(Math.max(...inFlight)).toBeLessThanOrEqual(10);
  });

  it("re-sends every callback of a batch whose worker was SIGKILLed mid-request, under the same webhook-ids", async () => {
    for (const w of workers.splice(0)) await w.stop();
    own.receiver.script("/batch-killed", [{ hold: true }, { status: 204 }], { perWebhookId: true });
    const partner = await createCallbackPartner(`${own.receiver.baseUrl}/batch-killed`);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await decideTransfer({ partner, decision: "CONFIRMED" })).callbackId);
    const env = { ...FAST, CALLBACK_TIMEOUT_MS: "3000" };
    const first = await startWorkerProcess({ databaseUrl: own.databaseUrl, authSecret, env });
    workers.push(first);
    await own.receiver.waitFor("/batch-killed", 4, 10_000);
    await first.kill();
    const during = await db().callbackAttempt.findMany({ where: { callbackId: { in: ids } } });
    expect(during).toHaveLength(4);
    expect(during.every((a) => a.statusCode === null && a.error === null)).toBe(true);

    workers.push(await startWorkerProcess({ databaseUrl: own.databaseUrl, authSecret, env }));
    await waitUntil("all re-sent and delivered", allDelivered(ids), 30_000);
    const byId = requestsById("/batch-killed");
    expect([...byId.keys()].sort()).toEqual([...ids].sort());
    expect([...byId.values()].every((sent) => sent.length === 2)).toBe(true);
    const attempts = await db().callbackAttempt.findMany({
      where: { callbackId: { in: ids } },
      orderBy: [{ callbackId: "asc" }, { attemptNumber: "asc" }],
    });
    for (const id of ids) {
      const mine = attempts.filter((a) => a.callbackId === id);
      expect(mine.map((a) => a.attemptNumber)).toEqual([1, 2]);
      expect(mine[0]!.error).toMatch(/^interrupted/);
      expect(mine[1]!.statusCode).toBe(204);
    }
  });
});
