// Claiming the running jobs' own callbacks (those the worker started together: drain-gatherer.ts) and, in the
// same statement, more of their partners' due callbacks whose jobs are still waiting (drain-callbacks.ts sends
// them together): one round trip, instead of a job fetch, a claim and a completion for each. Each claim is exactly the single claim's (claim-callback-attempt.ts):
// the attempt row (callback_id, n) is inserted, and the callback's lease moved, only where that insert won.
//
// Every callback claimed gets its job moved to the lease's end (a running job's own callback, a new one
// beside it), so that if this worker dies mid-attempt the job wakes then and the next attempt goes out
// without waiting for the reconcile; a success removes it, a failure reschedules it as usual. Rows another
// statement holds are skipped, never waited for, and callbacks whose jobs a worker has already fetched are
// left to those jobs.
import { poolQuery } from "@/lib/db/pool-query";
import { retryTransient } from "@/lib/db/retry-transient";
import { attemptLeaseMs, claimOf, EARLY_TOLERANCE_MS, type Claim } from "@/lib/callbacks/claim-callback-attempt";
import { LATER_ATTEMPT_PRIORITY } from "@/lib/callbacks/job-queue";
import { claimDueCallbacksStatement } from "@/lib/callbacks/queries/claim-due-callbacks";

export type ClaimDueCallbacksOptions = {
  /** The callbacks whose jobs are running: each claimed when due; the others are their partners'. */
  callbackIds: string[];
  /** How many callbacks at most, the jobs' own included (all of those are tried, whatever the limit). */
  limit: number;
  /** Only their partners' next due callbacks, not the jobs' own (a drain's next batch: drain-callbacks.ts). */
  next?: boolean;
};

/** The claims won, the jobs' own callbacks first (one is missing when not due, leased or locked). */
export async function claimDueCallbacks(opts: ClaimDueCallbacksOptions): Promise<Claim[]> {
  const { callbackIds } = opts;
  const ownIds = opts.next ? [] : callbackIds;
  const now = new Date();
  const lease = new Date(now.getTime() + attemptLeaseMs());
  const interruptedBefore = new Date(now.getTime() - attemptLeaseMs());
  // On the pool, without Prisma's per-statement cost; not prepared: a generic plan of its array and LIMIT
  // parameters is not what each batch needs. One statement: a transient error left nothing claimed.
  const statement = claimDueCallbacksStatement({
    callbackIds,
    ownIds,
    othersLimit: Math.max(0, opts.limit - ownIds.length),
    earlyToleranceMs: EARLY_TOLERANCE_MS,
    laterPriority: LATER_ATTEMPT_PRIORITY,
    now,
    lease,
    interruptedBefore,
  });
  const rows = await retryTransient(() => poolQuery(statement), { what: "callback batch claim" });
  return rows.map(({ moved: _moved, ...row }) => claimOf(row, now));
}
