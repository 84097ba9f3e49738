// Automatic delivery jobs started together (drain-gatherer.ts), sending their own callbacks and up to
// CALLBACK_BATCH_SIZE each of their partners' due callbacks at once: one claim statement for all of them
// (claim-due-callbacks.ts), the POSTs concurrently over each partner's kept-alive connections, and each
// partner's successes in one statement. What a job costs beside its POSTs (graphile-worker's fetch and
// completion, the claim, the success) is then shared by the batch; it was most of a delivery's cost
// (bench/HISTORY.md).
//
// A batch's ordinary failures are recorded together too (record-callback-failures.ts): a partner whose
// endpoint is down fails whole batches, and one at a time their bookkeeping held up every callback queued
// behind them, other partners' fresh ones included. The rarer kinds (the sender's refusal, 410 Gone, an
// interrupted attempt) go through recordOutcome on its own. Each partner's secrets are opened, and its URL's host
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
import { isOrdinaryFailure, recordCallbackFailures } from "@/lib/callbacks/record-callback-failures";
import { recordCallbackSuccesses } from "@/lib/callbacks/record-callback-successes";
import { observeCallbackBatch } from "@/lib/ops/metrics";

export type DrainCallbacksOptions = {
  /** The callbacks of the jobs being run (distinct). */
  callbackIds: string[];
  /** How many callbacks each job sends at most, its own included (CALLBACK_BATCH_SIZE); 1 is the single delivery. */
  batchSize: number;
  signal?: AbortSignal;
};

type Sent = { claim: Claim; result: AttemptResult };

/** Each sent callback's outcome, by id (the jobs' own among them). Throws only on database trouble. */
export async function drainCallbacks(opts: DrainCallbacksOptions): Promise<Map<string, DeliveryOutcome>> {
  const single = (id: string) => deliverCallback(id, { signal: opts.signal }).then((outcome) => [id, outcome] as const);
  if (opts.batchSize <= 1) return new Map(await Promise.all(opts.callbackIds.map(single)));
  const claims = await claimDueCallbacks({
    callbackIds: opts.callbackIds,
    // Each job brings up to a batch: gathered jobs keep the POSTs in flight they would have had apart.
    limit: opts.batchSize * opts.callbackIds.length,
  });
  observeCallbackBatch(claims.length);
  const claimed = new Set(claims.map((c) => c.callback.id));
  const unclaimed = Promise.all(opts.callbackIds.filter((id) => !claimed.has(id)).map(single));
  // Each partner's part is sent and recorded on its own, so one partner's slow endpoint holds back no other's
  // bookkeeping (a job's callbacks are one partner's; gathered jobs may be several partners').
  const byPartner = new Map<string, Claim[]>();
  for (const claim of claims)
    byPartner.set(claim.callback.partner_id, [...(byPartner.get(claim.callback.partner_id) ?? []), claim]);
  const recorded = await Promise.allSettled([
    ...[...byPartner.values()].map((mine) => sendAndRecord(mine, opts.signal)),
    unclaimed,
  ]);
  const outcomes = new Map<string, DeliveryOutcome>();
  for (const r of recorded)
    if (r.status === "fulfilled") for (const [id, outcome] of r.value) outcomes.set(id, outcome);
  // Database trouble: graphile-worker retries the jobs; the other claims' jobs wake at their leases' end.
  const failed = recorded.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return outcomes;
}

/** One partner's claims: sent at once, the successes recorded in one statement, the ordinary failures in one transaction. */
async function sendAndRecord(claims: Claim[], signal?: AbortSignal): Promise<[string, DeliveryOutcome][]> {
  // One partner, one URL, one instant: its secrets are opened and its URL resolved and checked once.
  const shared = batchShared(claims[0]!.callback.partner_id, claims[0]!.partner);
  const sent: Sent[] = await Promise.all(
    claims.map(async (claim) => ({ claim, result: await sendAttempt(claim, signal, shared) })),
  );
  const successes = sent.filter((s) => isSuccess(s.result));
  const failures = sent.filter((s) => isOrdinaryFailure(s.result));
  const recorded = await Promise.allSettled([
    recordCallbackSuccesses({ successes }).then(() => successes.map((s) => ({ ...s, outcome: "delivered" as const }))),
    recordCallbackFailures(failures).then((outcomes) =>
      failures.map((s) => ({ ...s, outcome: outcomes.get(s.claim.callback.id)! })),
    ),
    ...sent
      .filter((s) => !isSuccess(s.result) && !isOrdinaryFailure(s.result))
      .map(async (s) => [{ ...s, outcome: await recordOutcome(s.claim, s.result, false) }]),
  ]);
  const outcomes: [string, DeliveryOutcome][] = [];
  for (const r of recorded) {
    if (r.status === "rejected") continue;
    for (const { claim, result, outcome } of r.value) {
      reportAttempt(claim, result, false, outcome);
      outcomes.push([claim.callback.id, outcome]);
    }
  }
  const failed = recorded.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return outcomes;
}
