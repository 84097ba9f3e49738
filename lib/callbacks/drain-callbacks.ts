// One automatic delivery job, sending its own callback and up to CALLBACK_BATCH_SIZE - 1 more of the same
// partner's due callbacks at once: one claim statement for all of them (claim-due-callbacks.ts), the POSTs
// concurrently over the partner's kept-alive connections, and the successes in one statement. What a job
// costs beside its POSTs (graphile-worker's fetch and completion, the claim, the success) is then shared by
// the batch; it was most of a delivery's cost (bench/README.md).
//
// Everything else is the single delivery's: each failure goes through recordOutcome on its own (retry
// schedule, Retry-After, the 4-hour deadline, 410); the partner's secrets are opened, and its URL's host
// resolved and checked by the network guard, once for the batch (each new connection still dials that
// pinned address; the next batch re-checks it), and a job whose own callback was not claimed here (early,
// leased, settled, locked) takes the single path.
// All of a batch's POSTs run at once, so the batch is done within one attempt's timeout: inside every
// claim's lease.
import { claimDueCallbacks } from "@/lib/callbacks/claim-due-callbacks";
import type { Claim, DeliveryOutcome } from "@/lib/callbacks/claim-callback-attempt";
import {
  batchShared,
  deliverCallback,
  recordOutcome,
  reportAttempt,
  sendAttempt,
} from "@/lib/callbacks/deliver-callback";
import { isSuccess, type AttemptResult } from "@/lib/callbacks/post-callback";
import { recordCallbackSuccesses } from "@/lib/callbacks/record-callback-successes";

export type DrainCallbacksOptions = {
  /** The callback the job is for. */
  callbackId: string;
  /** How many callbacks the job may send at once, its own included; 1 is the single delivery. */
  batchSize: number;
  signal?: AbortSignal;
};

type Sent = { claim: Claim; result: AttemptResult };

/** Returns each sent callback's outcome (the job's own first). Throws only on database trouble. */
export async function drainCallbacks(opts: DrainCallbacksOptions): Promise<DeliveryOutcome[]> {
  if (opts.batchSize <= 1) return [await deliverCallback(opts.callbackId, { signal: opts.signal })];
  const claims = await claimDueCallbacks({ callbackId: opts.callbackId, limit: opts.batchSize });
  const ownClaimed = claims[0]?.callback.id === opts.callbackId;
  const own = ownClaimed ? null : deliverCallback(opts.callbackId, { signal: opts.signal });
  // One partner, one URL, one instant: its secrets are opened and its URL resolved and checked once.
  const first = claims[0];
  const shared = first && batchShared(first.callback.partner_id, first.partner);
  const sent: Sent[] = await Promise.all(
    claims.map(async (claim) => ({
      claim,
      result: await sendAttempt(
        claim,
        opts.signal,
        claim.callback.partner_id === first?.callback.partner_id ? shared : undefined,
      ),
    })),
  );

  const successes = sent.filter((s) => isSuccess(s.result.statusCode));
  const recorded = await Promise.allSettled([
    recordCallbackSuccesses({ successes }).then(() => successes.map((s) => ({ ...s, outcome: "delivered" as const }))),
    ...sent
      .filter((s) => !isSuccess(s.result.statusCode))
      .map(async (s) => [{ ...s, outcome: await recordOutcome(s.claim, s.result, false) }]),
    ...(own ? [own.then(() => [])] : []),
  ]);
  const outcomes = new Map<string, DeliveryOutcome>();
  for (const r of recorded) {
    if (r.status === "rejected") continue;
    for (const { claim, result, outcome } of r.value) {
      reportAttempt(claim, result, false, outcome);
      outcomes.set(claim.callback.id, outcome);
    }
  }
  // Database trouble: graphile-worker retries this job; the other claims' jobs wake at their leases' end.
  const failed = recorded.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return [...(own ? [await own] : []), ...claims.map((c) => outcomes.get(c.callback.id)!)];
}
