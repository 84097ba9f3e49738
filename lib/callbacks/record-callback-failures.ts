// A batch's ordinary failures (no answer, or an error status), recorded together in one transaction of three
// statements instead of one transaction of about nine statements each (drain-callbacks.ts). A partner whose
// endpoint is down fails a whole batch at once, and every callback waiting behind that batch (another
// partner's fresh one included) waited for each failure to be written one by one.
//
// It decides exactly as recordOutcome (deliver-callback.ts) does for such a failure, from the same reads
// under the same locks: the callbacks locked, then the latest automatic attempt of each read; the attempt's
// answer written; the partner marked failing; the callback's last answer kept unless it was delivered
// meanwhile; and only where this attempt still owns the retry schedule, the next attempt planned
// (planRetry) and its job moved, or the callback given up as FAILED. The kinds recordOutcome treats apart
// (the sender's refusal, 410 Gone, an interrupted attempt, a manual one) still go through it.
import { isRefusedBySender } from "@/lib/callbacks/callback-answer";
import type { Claim, DeliveryOutcome } from "@/lib/callbacks/claim-callback-attempt";
import { describeFailure } from "@/lib/callbacks/deliver-callback";
import { LATER_ATTEMPT_PRIORITY } from "@/lib/callbacks/job-queue";
import { isSuccess, type AttemptResult } from "@/lib/callbacks/post-callback";
import { parseRetryAfter, planRetry } from "@/lib/callbacks/retry-schedule";
import {
  latestAutomaticAttemptsStatement,
  lockFailedCallbacksStatement,
  recordFailuresStatement,
  type FailureValues,
} from "@/lib/callbacks/queries/record-failures";
import { poolTransaction } from "@/lib/db/pool-transaction";
import { retryTransient } from "@/lib/db/retry-transient";
import { env } from "@/lib/env";

export type CallbackFailure = { claim: Claim; result: AttemptResult };

/** A failed automatic attempt that recordCallbackFailures records; anything else goes through recordOutcome. */
export function isOrdinaryFailure(result: AttemptResult): boolean {
  return !isSuccess(result) && !result.interrupted && result.statusCode !== 410 && !isRefusedBySender(result);
}

/**
 * Each failure's outcome, by callback id. Run again after a transient database error; throws on lasting
 * trouble (nothing is then written).
 */
export async function recordCallbackFailures(failures: CallbackFailure[]): Promise<Map<string, DeliveryOutcome>> {
  if (failures.length === 0) return new Map();
  return retryTransient(() => recordFailuresOnce(failures), { what: "callback failures" });
}

async function recordFailuresOnce(failures: CallbackFailure[]): Promise<Map<string, DeliveryOutcome>> {
  const outcomes = new Map<string, DeliveryOutcome>();
  const ids = failures.map((f) => f.claim.callback.id);
  return poolTransaction(async (tx) => {
    const current = await tx.query(lockFailedCallbacksStatement({ ids }));
    // Read after the locks are held, as recordOutcome reads it: an attempt that outlived its lease may have a later one.
    const latest = await tx.query(latestAutomaticAttemptsStatement({ ids }));
    const rows = new Map(current.map((r) => [r.id, r]));
    const latestOf = new Map(latest.map((r) => [r.callback_id, r.n]));
    const now = new Date();
    const scale = env().CALLBACK_RETRY_SCALE;

    const w = {
      ids: [] as string[],
      attempts: [] as number[],
      codes: [] as (number | null)[],
      errors: [] as (string | null)[],
      latencies: [] as number[],
      responseTypes: [] as (string | null)[],
      errorTypes: [] as (string | null)[],
      descriptions: [] as (string | null)[],
      excerpts: [] as (string | null)[],
      writeLast: [] as boolean[],
      lastErrors: [] as string[],
      owns: [] as boolean[],
      nextAt: [] as (Date | null)[],
      giveUp: [] as boolean[],
    };
    const failingSince = new Map<string, Date>();
    for (const { claim, result } of failures) {
      const id = claim.callback.id;
      const row = rows.get(id);
      if (!row) {
        outcomes.set(id, "missing");
        continue;
      }
      const owns = row.status === "PENDING" && latestOf.get(id) === claim.attemptNumber;
      const plan = owns
        ? planRetry({
            firstAttemptAt: row.created_at,
            now,
            failedAttempts: claim.automaticAttempts,
            retryAfterMs: parseRetryAfter(result.retryAfter, now),
            scale,
          })
        : null;
      w.ids.push(id);
      w.attempts.push(claim.attemptNumber);
      w.codes.push(result.statusCode);
      w.errors.push(result.error);
      w.latencies.push(result.latencyMs);
      w.responseTypes.push(result.sender?.responseType ?? null);
      w.errorTypes.push(result.sender?.errorType ?? null);
      w.descriptions.push(result.sender?.description ?? null);
      w.excerpts.push(result.excerpt);
      w.writeLast.push(row.status !== "DELIVERED");
      w.lastErrors.push(describeFailure(result));
      w.owns.push(owns);
      w.nextAt.push(plan?.kind === "retry" ? plan.at : null);
      w.giveUp.push(plan?.kind === "give-up");
      const partnerId = claim.callback.partner_id;
      const since = failingSince.get(partnerId);
      if (!since || claim.startedAt < since) failingSince.set(partnerId, claim.startedAt);
      outcomes.set(id, !owns ? "claimed-elsewhere" : plan?.kind === "give-up" ? "failed" : "retry-scheduled");
    }
    if (w.ids.length === 0) return outcomes;
    const written: FailureValues = {
      ...w,
      failingPartners: [...failingSince.keys()],
      failingSince: [...failingSince.values()],
      laterPriority: LATER_ATTEMPT_PRIORITY,
    };
    await tx.query(recordFailuresStatement(written));
    return outcomes;
  });
}
