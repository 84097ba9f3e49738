// A decision's callback is due at once whatever the app server's clock says. Its job runs at the database's
// now(), and the claim compares the callback's next_attempt_at with the database's clock: a first attempt due
// at the app server's time, when that clock runs ahead of the database's by more than the early tolerance,
// was found "not due" and put to sleep until then, and then waited for the worker's next poll as well (no
// notification wakes a job queued for later). The app server's clock is set ahead here while it decides.
import { afterEach, describe, expect, it, vi } from "vitest";
import { EARLY_TOLERANCE_MS } from "@/lib/callbacks/claim-callback-attempt";
import { deliverCallback } from "@/lib/callbacks/deliver-callback";
import { drainCallbacks } from "@/lib/callbacks/drain-callbacks";
import { db } from "@/lib/db/prisma";
import { connectTestEnvironment } from "@/tests/support/integration";
import { callbackRow, createCallbackPartner, decideTransfer, ownCallbackDatabase } from "./callbacks-fixtures";

const AHEAD_MS = 10 * EARLY_TOLERANCE_MS;

connectTestEnvironment();
const own = ownCallbackDatabase("rx_callbacks_skew");

afterEach(() => {
  vi.useRealTimers();
});

/** A transfer approved while this process's clock runs AHEAD_MS ahead of the database's. */
async function approveWithClockAhead(partner: Awaited<ReturnType<typeof createCallbackPartner>>) {
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + AHEAD_MS);
  try {
    return await decideTransfer({ partner, decision: "CONFIRMED" });
  } finally {
    vi.useRealTimers();
  }
}

async function jobRunsInMs(callbackId: string): Promise<number> {
  const [job] = await db().$queryRaw<{ ms: number }[]>`
    SELECT (extract(epoch FROM run_at - now()) * 1000)::int AS ms FROM graphile_worker.jobs WHERE key = ${callbackId}`;
  return job?.ms ?? Number.NaN;
}

describe("a decision's callback, decided on a clock ahead of the database's", () => {
  it("is claimed and sent by its first job (one delivery)", async () => {
    own.receiver.script("/skew-one", [{ status: 204 }]);
    const partner = await createCallbackPartner(`${own.receiver.baseUrl}/skew-one`);
    const decided = await approveWithClockAhead(partner);

    expect(await jobRunsInMs(decided.callbackId)).toBeLessThanOrEqual(0);
    expect(await deliverCallback(decided.callbackId)).toBe("delivered");
    expect(own.receiver.requests("/skew-one")).toHaveLength(1);
    expect((await callbackRow(decided.callbackId)).status).toBe("DELIVERED");
  });

  it("is claimed and sent by its first job (batched delivery)", async () => {
    own.receiver.script("/skew-batch", [{ status: 204 }]);
    const partner = await createCallbackPartner(`${own.receiver.baseUrl}/skew-batch`);
    const decided = await approveWithClockAhead(partner);

    const { outcomes } = await drainCallbacks({ callbackIds: [decided.callbackId], batchSize: 32 });
    expect(outcomes.get(decided.callbackId)).toBe("delivered");
    expect(own.receiver.requests("/skew-batch")).toHaveLength(1);
    // Nothing left to wake it later: the success removed its job.
    expect(Number.isNaN(await jobRunsInMs(decided.callbackId))).toBe(true);
  });
});
