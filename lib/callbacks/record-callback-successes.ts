// Successful attempts, recorded in one statement outside any transaction, however many there are (one job
// may send several callbacks: drain-callbacks.ts). The statement is atomic on its own and its UPDATE of each
// callback takes that row's lock. For each: the attempt's answer; the callback and its transfer DELIVERED
// (unless already) with its waiting job cancelled; the partners' failure marks cleared, written only when
// set (an unconditional write would lock the partner's row, and concurrent deliveries to that partner
// would queue on it).
import { Prisma } from "@/generated/prisma/client";
import { poolQuery } from "@/lib/db/pool-query";
import type { Claim } from "@/lib/callbacks/claim-callback-attempt";
import type { AttemptResult } from "@/lib/callbacks/post-callback";

export type CallbackSuccess = { claim: Claim; result: AttemptResult };

export type RecordCallbackSuccessesOptions = { successes: CallbackSuccess[] };

export async function recordCallbackSuccesses(opts: RecordCallbackSuccessesOptions): Promise<void> {
  const { successes } = opts;
  if (successes.length === 0) return;
  const ids = successes.map((s) => s.claim.callback.id);
  const attempts = successes.map((s) => s.claim.attemptNumber);
  const codes = successes.map((s) => s.result.statusCode);
  const errors = successes.map((s) => s.result.error);
  const latencies = successes.map((s) => s.result.latencyMs);
  const types = successes.map((s) => s.result.sender?.responseType ?? null);
  const excerpts = successes.map((s) => s.result.excerpt);
  const partnerIds = [...new Set(successes.map((s) => s.claim.callback.partner_id))];
  const now = new Date();
  await poolQuery(Prisma.sql`
    WITH done AS (
      SELECT * FROM unnest(${ids}::text[], ${attempts}::int[], ${codes}::int[], ${errors}::text[], ${latencies}::int[],
                           ${types}::text[], ${excerpts}::text[])
          AS d(callback_id, attempt_number, status_code, error, latency_ms, sender_response_type, response_excerpt)),
    attempt AS (
      UPDATE callback_attempts a SET status_code = d.status_code, error = d.error, latency_ms = d.latency_ms,
             sender_response_type = d.sender_response_type, response_excerpt = d.response_excerpt
        FROM done d WHERE a.callback_id = d.callback_id AND a.attempt_number = d.attempt_number),
    delivered AS (
      UPDATE callbacks c SET status = 'DELIVERED', delivered_at = ${now}::timestamptz, next_attempt_at = NULL,
             last_status_code = d.status_code, last_error = NULL
        FROM done d WHERE c.id = d.callback_id AND c.status <> 'DELIVERED'
      RETURNING c.id, c.transfer_id),
    transfer AS (
      UPDATE transfers SET callback_status = 'DELIVERED' WHERE id IN (SELECT transfer_id FROM delivered)),
    partner AS (
      UPDATE partners SET callback_failing_since = NULL, callback_gone_at = NULL
       WHERE id = ANY(${partnerIds}::text[]) AND (callback_failing_since IS NOT NULL OR callback_gone_at IS NOT NULL))
    SELECT graphile_worker.remove_job(d.id) FROM delivered d`);
}
