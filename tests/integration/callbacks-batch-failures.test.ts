// A batch's ordinary failures are recorded together (lib/callbacks/record-callback-failures.ts), with what
// recordOutcome would have written for each: the attempt's answer, the callback's last answer and its next
// attempt planned by the retry schedule, its job moved there as a later attempt, the partner marked failing.
// One transaction per batch: each callback row's last writer (xmin) is the batch's transaction. One at a
// time, a down partner's batches held up every callback queued behind them, other partners' fresh ones too.
import { afterAll, describe, expect, inject, it } from "vitest";
import { LATER_ATTEMPT_PRIORITY } from "@/lib/callbacks/job-queue";
import { RETRY_DELAYS_MS, JITTER } from "@/lib/callbacks/retry-schedule";
import { db } from "@/lib/db/prisma";
import { connectTestEnvironment } from "@/tests/support/integration";
import {
  createCallbackPartner,
  ownCallbackDatabase,
  decideTransfer,
  startWorkerProcess,
  waitUntil,
  type WorkerProcess,
} from "./callbacks-fixtures";

const BATCH = 12;

connectTestEnvironment();
const own = ownCallbackDatabase("rx_callbacks_batch_failures");
const authSecret = inject("authSecret");
let worker: WorkerProcess | undefined;

afterAll(async () => {
  await worker?.stop();
});

describe("a batch of callbacks to a partner that is down", () => {
  it("records every failure in one transaction, each with its own retry planned and its job moved", async () => {
    own.receiver.script("/down", [{ status: 503 }]);
    const down = await createCallbackPartner(`${own.receiver.baseUrl}/down`);
    const ids: string[] = [];
    for (let i = 0; i < BATCH; i++)
      ids.push((await decideTransfer({ partner: down, decision: "CONFIRMED" })).callbackId);

    // One slot, batches as large as the backlog: one job claims them all, so they fail as one batch.
    worker = await startWorkerProcess({
      databaseUrl: own.databaseUrl,
      authSecret,
      env: { WORKER_CONCURRENCY: "1", CALLBACK_BATCH_SIZE: String(BATCH), WORKER_POLL_INTERVAL_MS: "100" },
    });
    const started = Date.now();
    const rows = await waitUntil("every first attempt recorded", async () => {
      const found = await db().$queryRaw<
        {
          id: string;
          xmin: string;
          last_status_code: number | null;
          next_attempt_at: Date | null;
          attempt_count: number;
        }[]
      >`SELECT id, xmin::text AS xmin, last_status_code, next_attempt_at, attempt_count FROM callbacks
         WHERE id = ANY(${ids}::text[])`;
      return found.every((r) => r.last_status_code === 503) ? found : null;
    });
    await worker.stop();
    worker = undefined;

    expect(own.receiver.requests("/down")).toHaveLength(BATCH);
    // One transaction per batch: the one job the worker may already hold beside its slot (its local queue)
    // is locked, so its callback is not among the others the first claim takes, and goes as a second batch.
    expect(new Set(rows.map((r) => r.xmin)).size, "transactions that wrote the failures").toBeLessThanOrEqual(2);
    const attempts = await db().callbackAttempt.findMany({ where: { callbackId: { in: ids } } });
    expect(attempts).toHaveLength(BATCH);
    for (const a of attempts) {
      expect(a.attemptNumber).toBe(1);
      expect(a.statusCode).toBe(503);
    }
    const jobs = await db().$queryRaw<{ key: string; priority: number; run_at: Date }[]>`
      SELECT key, priority, run_at FROM graphile_worker.jobs WHERE key = ANY(${ids}::text[])`;
    expect(jobs).toHaveLength(BATCH);
    const byKey = new Map(jobs.map((j) => [j.key, j]));
    for (const row of rows) {
      expect(row.attempt_count).toBe(1);
      const delay = row.next_attempt_at!.getTime() - started;
      expect(delay).toBeGreaterThan(RETRY_DELAYS_MS[0]! * (1 - JITTER) - 1_000);
      expect(delay).toBeLessThan(RETRY_DELAYS_MS[0]! * (1 + JITTER) + 30_000);
      const job = byKey.get(row.id)!;
      expect(job.priority).toBe(LATER_ATTEMPT_PRIORITY);
      expect(job.run_at.getTime()).toBe(row.next_attempt_at!.getTime());
    }
    const partner = await db().partner.findUniqueOrThrow({ where: { id: down.partnerId } });
    expect(partner.callbackFailingSince).not.toBeNull();
    const transfers = await db().callback.findMany({ where: { id: { in: ids } }, select: { status: true } });
    expect(transfers.every((t) => t.status === "PENDING")).toBe(true);
  });
});
