// A decision's callback does not queue behind another partner's retries. A partner whose endpoint is down
// piles up due retries (hundreds after a busy hour; each failure is recorded on its own), and graphile-worker
// fetches jobs by priority, then run_at: at equal priority every retry that fell due earlier went first, and a
// fresh approval's callback to a working partner waited for all of them (seconds). Deterministic: the jobs
// are all queued before a worker with one slot and batches of one starts, so the order it sends them in is
// exactly the order the queue gives.
import { afterAll, describe, expect, inject, it } from "vitest";
import { scheduleDelivery } from "@/lib/callbacks/job-queue";
import { db } from "@/lib/db/prisma";
import { connectTestEnvironment } from "@/tests/support/integration";
import {
  createCallbackPartner,
  ownCallbackDatabase,
  decideTransfer,
  startWorkerProcess,
  type WorkerProcess,
} from "./callbacks-fixtures";

const RETRIES = 12;

connectTestEnvironment();
const own = ownCallbackDatabase("rx_callbacks_fresh");
const authSecret = inject("authSecret");
let worker: WorkerProcess | undefined;

afterAll(async () => {
  await worker?.stop();
});

describe("callback jobs", () => {
  it("send a decision's first callback before another partner's retries that fell due earlier", async () => {
    own.receiver.script("/down", [{ status: 500 }]);
    own.receiver.script("/up", [{ status: 204 }]);
    const down = await createCallbackPartner(`${own.receiver.baseUrl}/down`);
    const up = await createCallbackPartner(`${own.receiver.baseUrl}/up`);
    // The down partner's callbacks: each failed its first attempt and its retry fell due a minute ago,
    // scheduled the way a failed attempt schedules it (deliver-callback.ts: scheduleDelivery at the plan's time).
    const dueAt = new Date(Date.now() - 60_000);
    for (let i = 0; i < RETRIES; i++) {
      const { callbackId } = await decideTransfer({ partner: down, decision: "CONFIRMED" });
      await db().$transaction(async (tx) => {
        await tx.$executeRaw`
          INSERT INTO callback_attempts (callback_id, attempt_number, started_at, status_code, latency_ms, manual)
          VALUES (${callbackId}, 1, ${new Date(dueAt.getTime() - 5_000)}::timestamptz, 500, 3, false)`;
        await tx.$executeRaw`
          UPDATE callbacks SET attempt_count = 1, last_status_code = 500, next_attempt_at = ${dueAt}::timestamptz
           WHERE id = ${callbackId}`;
        await scheduleDelivery(tx, callbackId, dueAt);
      });
    }
    const fresh = await decideTransfer({ partner: up, decision: "CONFIRMED" });

    worker = await startWorkerProcess({
      databaseUrl: own.databaseUrl,
      authSecret,
      env: { WORKER_CONCURRENCY: "1", CALLBACK_BATCH_SIZE: "1", WORKER_POLL_INTERVAL_MS: "100" },
    });
    await own.receiver.waitFor("/up", 1, 30_000);
    await own.receiver.waitFor("/down", RETRIES, 30_000);
    const order = own.receiver.requests().map((r) => r.path);
    const retriesBefore = order.indexOf("/up");
    // At most the one job the worker may already hold beside its slot (its local queue) goes first.
    expect(retriesBefore, order.join(" ")).toBeLessThanOrEqual(1);
    expect(own.receiver.requests("/up")[0]!.headers["webhook-id"]).toBe(fresh.callbackId);
  });
});
