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
import { errorFields, log } from "@/lib/log";
import { observeCallbackBatch } from "@/lib/ops/metrics";

/**
 * The most batches one drain sends before its jobs finish and the worker fetches from the queue again: how
 * long a partner's backlog can keep a worker's slots from other partners' jobs (8 × 128 callbacks, about half a
 * second against a quick endpoint).
 */
const MAX_BATCHES_PER_DRAIN = 8;

export type DrainCallbacksOptions = {
  /** The callbacks of the jobs being run (distinct). */
  callbackIds: string[];
  /** How many callbacks each job sends at most, its own included (CALLBACK_BATCH_SIZE); 1 is the single delivery. */
  batchSize: number;
  signal?: AbortSignal;
};

export type DrainOutcomes = {
  /** Each callback sent or looked at, its outcome, by id (the jobs' own among them). */
  outcomes: Map<string, DeliveryOutcome>;
  /** The callbacks whose claim or record met database trouble that outlasted its retries, with the error. */
  failed: Map<string, unknown>;
};

type Sent = { claim: Claim; result: AttemptResult };

/**
 * Sends the jobs' callbacks and their partners' due ones. Each step runs again after a transient database
 * error (retryTransient); trouble that outlasts that fails only the callbacks of the step it stopped, and
 * throws only when the claim of them all could not be made.
 */
export async function drainCallbacks(opts: DrainCallbacksOptions): Promise<DrainOutcomes> {
  const drained: DrainOutcomes = { outcomes: new Map(), failed: new Map() };
  const single = (id: string) =>
    settle(drained, [id], async () => [await deliverCallback(id, { signal: opts.signal })]);
  if (opts.batchSize <= 1) {
    await Promise.all(opts.callbackIds.map(single));
    return drained;
  }
  const limit = opts.batchSize * opts.callbackIds.length;
  // Each job brings up to a batch: gathered jobs keep the POSTs in flight they would have had apart.
  let claims = await claimDueCallbacks({ callbackIds: opts.callbackIds, limit });
  const claimed = new Set(claims.map((c) => c.callback.id));
  const singles = Promise.all(opts.callbackIds.filter((id) => !claimed.has(id)).map(single));
  // While a batch is in flight, its partners' next batch is claimed and sent: the claim's and the records'
  // round trips overlap the POSTs instead of standing between them. Two batches at most are in flight (the
  // next claim waits for the one before), and a batch's POSTs start as soon as it is claimed, so each attempt
  // still ends within its lease. Another batch is claimed only while the last came back full (more are due),
  // up to MAX_BATCHES_PER_DRAIN, and not once the worker is stopping.
  let previous: Promise<void> = Promise.resolve();
  for (let batch = 1; ; batch++) {
    observeCallbackBatch(claims.length);
    const sending = sendByPartner(claims, drained, opts.signal);
    sending.catch(() => {}); // awaited below or in the next turn; not an unhandled rejection meanwhile
    await previous;
    if (claims.length < limit || batch >= MAX_BATCHES_PER_DRAIN || opts.signal?.aborted) {
      await sending;
      break;
    }
    previous = sending;
    try {
      claims = await claimDueCallbacks({ callbackIds: opts.callbackIds, limit, next: true });
    } catch (err) {
      // The jobs' own callbacks are in hand; the rest are left to their own jobs.
      log("warn", "callback drain: the next batch could not be claimed", errorFields(err));
      await sending;
      break;
    }
  }
  await singles;
  return drained;
}

/**
 * Each partner's part of a batch sent and recorded on its own, so that one partner's slow endpoint holds back
 * no other's bookkeeping (a job's callbacks are one partner's; gathered jobs may be several partners').
 */
async function sendByPartner(claims: Claim[], drained: DrainOutcomes, signal?: AbortSignal): Promise<void> {
  const byPartner = new Map<string, Claim[]>();
  for (const claim of claims) {
    const mine = byPartner.get(claim.callback.partner_id);
    if (mine) mine.push(claim);
    else byPartner.set(claim.callback.partner_id, [claim]);
  }
  await Promise.all([...byPartner.values()].map((mine) => sendAndRecord(mine, drained, signal)));
}

/** One partner's claims: sent at once, the successes recorded in one statement, the ordinary failures in one transaction. */
async function sendAndRecord(claims: Claim[], drained: DrainOutcomes, signal?: AbortSignal): Promise<void> {
  // One partner, one URL, one instant: its secrets are opened and its URL resolved and checked once.
  const shared = batchShared(claims[0]!.callback.partner_id, claims[0]!.partner);
  const sent: Sent[] = await Promise.all(
    claims.map(async (claim) => ({ claim, result: await sendAttempt(claim, signal, shared) })),
  );
  const successes = sent.filter((s) => isSuccess(s.result));
  const failures = sent.filter((s) => isOrdinaryFailure(s.result));
  const recorded = (part: Sent[], write: () => Promise<DeliveryOutcome[]>) =>
    settle(
      drained,
      part.map((s) => s.claim.callback.id),
      async () => {
        const outcomes = await write();
        part.forEach((s, i) => reportAttempt(s.claim, s.result, false, outcomes[i]!));
        return outcomes;
      },
    );
  await Promise.all([
    recorded(successes, () => recordCallbackSuccesses({ successes }).then(() => successes.map(() => "delivered"))),
    recorded(failures, async () => {
      const outcomes = await recordCallbackFailures(failures);
      return failures.map((s) => outcomes.get(s.claim.callback.id)!);
    }),
    ...sent
      .filter((s) => !isSuccess(s.result) && !isOrdinaryFailure(s.result))
      .map((s) => recorded([s], async () => [await recordOutcome(s.claim, s.result, false)])),
  ]);
}

/**
 * Files the outcomes `work` gives for `ids` (in order), or its error against each of them alone: another
 * partner's batch, or another job's callback, is not failed with them. Such a callback, when claimed, is
 * sent again by its job at its lease's end (claim-due-callbacks.ts).
 */
async function settle(drained: DrainOutcomes, ids: string[], work: () => Promise<DeliveryOutcome[]>): Promise<void> {
  if (ids.length === 0) return;
  try {
    const outcomes = await work();
    ids.forEach((id, i) => drained.outcomes.set(id, outcomes[i]!));
  } catch (err) {
    for (const id of ids) drained.failed.set(id, err);
  }
}
