// A decision's callback does not queue behind another partner's retries. A partner whose endpoint is down
// piles up due retries (hundreds after a busy hour; each failure is recorded on its own), and graphile-worker
// fetches jobs by priority, then run_at: at equal priority every retry that fell due earlier went first, and a
// fresh approval's callback to a working partner waited for all of them (seconds). Deterministic: the jobs
// are all queued before a worker with one slot and batches of one starts, so the order it sends them in is
// exactly the order the queue gives.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { scheduleDelivery } from "@/lib/callbacks/job-queue";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { startCallbackReceiver, type CallbackReceiver } from "@/tests/support/callback-receiver";
import { createMigratedDatabase } from "@/tests/support/database";
import { connectTestEnvironment } from "@/tests/support/integration";
import { createCallbackPartner, decideTransfer, startWorkerProcess, type WorkerProcess } from "./callbacks-fixtures";

const RETRIES = 12;

connectTestEnvironment();
const authSecret = inject("authSecret");
let receiver: CallbackReceiver;
let worker: WorkerProcess | undefined;
let databaseUrl: string;

beforeAll(async () => {
  receiver = await startCallbackReceiver();
  // A database of its own, so that the test server's in-process worker never takes these jobs.
  databaseUrl = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_callbacks_fresh");
  await installJobQueue(databaseUrl);
  await disconnectDb();
  setEnv({ DATABASE_URL: databaseUrl });
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await disconnectDb();
});

describe("callback jobs", () => {
  it("send a decision's first callback before another partner's retries that fell due earlier", async () => {
    receiver.script("/down", [{ status: 500 }]);
    receiver.script("/up", [{ status: 204 }]);
    const down = await createCallbackPartner(`${receiver.baseUrl}/down`);
    const up = await createCallbackPartner(`${receiver.baseUrl}/up`);
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
      databaseUrl,
      authSecret,
      env: { WORKER_CONCURRENCY: "1", CALLBACK_BATCH_SIZE: "1", WORKER_POLL_INTERVAL_MS: "100" },
    });
    await receiver.waitFor("/up", 1, 30_000);
    await receiver.waitFor("/down", RETRIES, 30_000);
    const order = receiver.requests().map((r) => r.path);
    const retriesBefore = order.indexOf("/up");
    // At most the one job the worker may already hold beside its slot (its local queue) goes first.
    expect(retriesBefore, order.join(" ")).toBeLessThanOrEqual(1);
    expect(receiver.requests("/up")[0]!.headers["webhook-id"]).toBe(fresh.callbackId);
  });
});
