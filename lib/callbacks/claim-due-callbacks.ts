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
import { Prisma } from "@/generated/prisma/client";
import { poolQuery } from "@/lib/db/pool-query";
import {
  attemptLeaseMs,
  claimOf,
  EARLY_TOLERANCE_MS,
  type CallbackRow,
  type Claim,
  type PartnerRow,
} from "@/lib/callbacks/claim-callback-attempt";
import { DELIVER_TASK } from "@/lib/callbacks/job-queue";

export type ClaimDueCallbacksOptions = {
  /** The callbacks whose jobs are running: each claimed when due; the others are their partners'. */
  callbackIds: string[];
  /** How many callbacks at most, the jobs' own included (all of those are tried, whatever the limit). */
  limit: number;
};

type ClaimRow = CallbackRow & PartnerRow & { claimed: number; prior_automatic: number; moved: unknown };

/** The claims won, the jobs' own callbacks first (one is missing when not due, leased or locked). */
export async function claimDueCallbacks(opts: ClaimDueCallbacksOptions): Promise<Claim[]> {
  const { callbackIds } = opts;
  const now = new Date();
  const lease = new Date(now.getTime() + attemptLeaseMs());
  const interruptedBefore = new Date(now.getTime() - attemptLeaseMs());
  const rows = await poolQuery<ClaimRow>(Prisma.sql`
    WITH own AS (
      SELECT c.id, c.partner_id FROM callbacks c
       WHERE c.id = ANY(${callbackIds}::text[]) AND c.status = 'PENDING'
         AND (c.next_attempt_at IS NULL OR c.next_attempt_at <= clock_timestamp() + ${EARLY_TOLERANCE_MS}::int * interval '1 millisecond')
         FOR UPDATE SKIP LOCKED),
    others AS (
      SELECT c.id, c.partner_id FROM callbacks c
       WHERE c.partner_id IN (SELECT partner_id FROM callbacks WHERE id = ANY(${callbackIds}::text[]))
         AND c.status = 'PENDING' AND c.id <> ALL(${callbackIds}::text[])
         -- Due now, without the early tolerance a woken job gets: a partner's Retry-After is kept to the letter.
         AND c.next_attempt_at <= clock_timestamp()
         AND EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = c.id AND j.locked_at IS NULL AND j.attempts < j.max_attempts)
       ORDER BY c.next_attempt_at, c.id
       LIMIT ${Math.max(0, opts.limit - callbackIds.length)}::int
         FOR UPDATE SKIP LOCKED),
    picked AS (SELECT * FROM own UNION ALL SELECT * FROM others),
    c AS (
      SELECT c.id, c.transfer_id, c.partner_id, c.payload, c.status::text AS status, c.attempt_count, c.next_attempt_at,
             c.created_at, clock_timestamp() AS db_now,
             p.callback_url, p.webhook_secret, p.previous_webhook_secret, p.previous_secret_expires_at,
             p.outbound_header_name, p.outbound_header_value
        FROM picked k JOIN callbacks c ON c.id = k.id JOIN partners p ON p.id = c.partner_id),
    interrupted AS (
      UPDATE callback_attempts a
         SET error = 'interrupted: no answer was recorded (the worker stopped during the attempt)'
        FROM c WHERE a.callback_id = c.id AND c.attempt_count > 0
         AND a.status_code IS NULL AND a.error IS NULL AND a.started_at < ${interruptedBefore}::timestamptz),
    attempt AS (
      INSERT INTO callback_attempts (callback_id, attempt_number, started_at, manual)
      SELECT c.id, c.attempt_count + 1, ${now}::timestamptz, false FROM c
      ON CONFLICT (callback_id, attempt_number) DO NOTHING
      RETURNING callback_id, attempt_number),
    claimed AS (
      UPDATE callbacks SET attempt_count = attempt.attempt_number, next_attempt_at = ${lease}::timestamptz
        FROM attempt WHERE callbacks.id = attempt.callback_id
      RETURNING callbacks.id, callbacks.attempt_count),
    moved AS (
      SELECT graphile_worker.add_job(${DELIVER_TASK}::text, json_build_object('callbackId', claimed.id),
               run_at := ${lease}::timestamptz, job_key := claimed.id)
        FROM claimed)
    SELECT c.*, claimed.attempt_count AS claimed,
           (SELECT count(*)::int FROM callback_attempts a WHERE a.callback_id = c.id AND NOT a.manual) AS prior_automatic,
           (SELECT count(*) FROM moved) AS moved
      FROM c JOIN claimed ON claimed.id = c.id
     ORDER BY c.id = ANY(${callbackIds}::text[]) DESC, c.next_attempt_at, c.id`);
  return rows.map(({ moved: _moved, ...row }) => claimOf(row, now));
}
