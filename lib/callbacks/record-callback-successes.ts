// Successful attempts, recorded in one statement outside any transaction, however many there are (one job
// may send several callbacks: drain-callbacks.ts). The statement is atomic on its own and its UPDATE of each
// callback takes that row's lock. For each: the attempt's answer; the callback and its transfer DELIVERED
// (unless already) with its waiting job cancelled; the partners' failure marks cleared, written only when
// set (an unconditional write would lock the partner's row, and concurrent deliveries to that partner
// would queue on it).
import { poolQuery } from "@/lib/db/pool-query";
import { retryTransient } from "@/lib/db/retry-transient";
import { recordSuccessesStatement } from "@/lib/callbacks/queries/record-successes";
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
  // On the pool, without Prisma's per-statement cost (lib/db/pool-query.ts). Run again after a transient
  // error: the POSTs went out, and an unrecorded success would be sent again once its lease ran out.
  const statement = recordSuccessesStatement({
    ids,
    attempts,
    codes,
    errors,
    latencies,
    types,
    excerpts,
    partnerIds,
    now,
  });
  await retryTransient(() => poolQuery(statement), { what: "callback successes" });
}
