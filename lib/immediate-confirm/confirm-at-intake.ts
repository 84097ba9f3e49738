// Stores a transfer for a store whose immediate-confirmation policy is on, and either confirms it (status
// CONFIRMED, the CONFIRMED answer stored as the response a replay returns, the decision record in
// immediate_confirmations, an audit event, all in the transaction that stores it) or leaves it RECEIVED with the
// reason it did not qualify. The request's own part is judged before anything is sent, under the cached policy
// (find-immediate-confirm-policy.ts), from the drug review and checks intake classifies the row with.
//
// The common case is one statement (confirm-in-one-statement.ts). The long way, here, is a transaction of two
// statements, for what that one leaves to it (no audit chain of its own free, near the hourly cap) and for a
// policy turned off since it was cached: the first statement (queries/store-and-judge.ts) takes the policy's
// shared lock, reads the policy, the rules and the database's signals, and stores the transfer, CONFIRMED when
// all of them allow it; the second (queries/confirmation.ts) writes the decision record, the count and the audit
// record, and fails unless the policy is still the version read, which it sees after the lock is held. Either
// way, a policy or rules other than the cached ones store nothing, and intake starts again with a fresh read.
// When the policy moves under every attempt, the transfer is stored RECEIVED with that reason: an answer the
// sender need not retry, and a pharmacist reviews it as any other.
//
// The hourly cap: far from it, an upper bound from per-store counts decides without serialising intake (exact
// unless more than CAP_MARGIN confirmations are in flight at once for that store; a process's pool holds 10
// connections); within CAP_MARGIN of it, confirmations take the store's cap lock one at a time and count the
// hour exactly, so the cap itself is exact.
import type { SqlBool } from "kysely";
import { auditRecordRow } from "@/lib/audit/record-audit-event";
import type { KnownApiKey } from "@/lib/auth/find-sender-by-api-key";
import { acquireChainStatement } from "@/lib/audit/sql";
import { poolTransaction, type PoolTransaction } from "@/lib/db/pool-transaction";
import { env } from "@/lib/env";
import {
  bucketStart,
  CAP_MARGIN,
  countRecentConfirmations,
  lockStoreCap,
} from "@/lib/immediate-confirm/queries/cap-count";
import {
  confirmImmediately,
  isPolicyMoved,
  recordConfirmation,
  recordMiss,
  recordMissUnguarded,
} from "@/lib/immediate-confirm/queries/confirmation";
import {
  findImmediatePolicy,
  forgetImmediatePolicies,
  type CachedPolicy,
} from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import { policyLockKey, type PolicyFacts } from "@/lib/immediate-confirm/queries/policy";
import { whyNotReviewed } from "@/lib/immediate-confirm/qualify-transfer";
import { storeAndJudge } from "@/lib/immediate-confirm/queries/store-and-judge";
import { DUPLICATE_THERAPY_DAYS } from "@/lib/transfers/review";
import { keyArgs, type TransferInsert } from "@/lib/transfers/queries/intake";
import { confirmedResponseOf, type TransferResponse } from "@/lib/interface";
import { confirmInOneStatement } from "@/lib/immediate-confirm/confirm-in-one-statement";
import {
  confirmationAudit,
  DUPLICATE_MISS,
  OWNER_MISS,
  REJECTED_MISS,
  type ConfirmAtIntakeOptions,
  type ReviewedRow,
} from "@/lib/immediate-confirm/judging";
import type { StoreRulesInZone } from "@/lib/stores/store-rules";

export type { ConfirmAtIntakeOptions, ReviewedRow } from "@/lib/immediate-confirm/judging";

const HOUR_MS = 3_600_000;
const ATTEMPTS = 3;

/** Why a transfer was not confirmed when the policy changed under every judgment of it. */
export const MOVED_MISS = "the store's policy changed while this transfer was judged: a pharmacist reviews it";

/** Thrown inside the transaction when the policy or rules are not the ones judged by: rolls it back. */
class PolicyMoved extends Error {}

/** The answer owed (CONFIRMED or RECEIVED), or null when nothing was stored (a conflict, or the key refused). */
export async function storeUnderImmediatePolicy(opts: ConfirmAtIntakeOptions): Promise<TransferResponse | null> {
  const attempts = opts.attempts ?? ATTEMPTS;
  let policy: CachedPolicy | null = opts.policy;
  // One classification per set of rules: a retry under the same policy entry reuses it.
  let reviewed: { rules: StoreRulesInZone | null; value: ReviewedRow } | null = null;
  const rowUnder = async (rules: StoreRulesInZone | null) => {
    if (reviewed?.rules !== rules) reviewed = { rules, value: await opts.rowFor(rules) };
    return reviewed.value;
  };
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const reviewed = await rowUnder(policy?.rules ?? null);
      if (policy) {
        const done = await confirmInOneStatement(opts, policy, reviewed);
        if (done === "moved") throw new PolicyMoved();
        if (done !== "long-way") return done.answer;
      }
      return await judgeAndStore(opts, policy, reviewed);
    } catch (err) {
      if (!(err instanceof PolicyMoved)) throw err;
      forgetImmediatePolicies();
      policy = await findImmediatePolicy(opts.request.receivingPharmacy.npi);
    }
  }
  return storeUnjudged(opts, await rowUnder(policy?.rules ?? null));
}

/** With `policy` null (turned off since): stored RECEIVED, in the same statement, under the same lock. */
async function judgeAndStore(opts: ConfirmAtIntakeOptions, policy: CachedPolicy | null, { row, review }: ReviewedRow) {
  const { request, response, key } = opts;
  const id = row.id;
  const now = new Date();
  // The request's own part, before the transaction, under the cached policy: the database's part follows.
  const pure = policy
    ? whyNotReviewed({ request, ...review, allowListedAllergies: policy.allow_listed_allergies })
    : null;
  const confirmed = confirmedResponseOf(request, id, now);
  const confirmedJson = JSON.stringify(confirmed);
  return poolTransaction(async (tx) => {
    const [judged] = await tx.query(
      judgeStatement({ row, npi: request.receivingPharmacy.npi, now, key }, policy, {
        mayConfirm: policy !== null && pure === null,
        json: confirmedJson,
        responseId: confirmed.metadata.responseID,
      }),
    );
    if (!judged?.id) return null;
    const fresh: PolicyFacts | null = judged.store_id ? (judged as PolicyFacts) : null;
    if (!policy) {
      // Turned off as far as this process knew: still off as read here, after the lock, or judged again.
      if (fresh?.enabled) throw new PolicyMoved();
      return response;
    }
    if (!fresh || !sameFacts(policy, fresh)) throw new PolicyMoved();
    if (!judged.confirmed) {
      const miss = await whyNot(tx, { policy, pure, judged, now });
      if (miss) {
        const [marked] = await tx.query(
          recordMiss({ transferId: id, storeId: policy.store_id, version: policy.version, miss }),
        );
        if (!marked) throw new PolicyMoved();
        return response;
      }
    }
    // Stored CONFIRMED by statement 1 (which took the audit chain), or qualifying after the exact count near
    // the cap: the chain taken now, after the cap lock.
    const chain =
      judged.chain !== null && judged.prev_hash !== null
        ? { chain: judged.chain, prev_hash: judged.prev_hash }
        : (await tx.query(acquireChainStatement({ chains: env().AUDIT_CHAINS })))[0]!;
    const decision = {
      transferId: id,
      storeId: policy.store_id,
      version: policy.version,
      decidedAt: now,
      response: confirmedJson,
      responseId: confirmed.metadata.responseID,
      ownerName: policy.owner_name!,
      ownerLicense: policy.owner_license,
      bucket: bucketStart(now),
    };
    const record = auditRecordRow(confirmationAudit(id, policy), chain);
    // The last statement, its COMMIT queued behind it (pool-transaction.ts).
    try {
      await tx.queryThenCommit(
        judged.confirmed ? recordConfirmation(decision, record) : confirmImmediately(decision, record),
      );
    } catch (err) {
      throw isPolicyMoved(err) ? new PolicyMoved() : err;
    }
    return confirmed;
  });
}

/**
 * After the policy moved under every attempt: stored RECEIVED by the same statement under the same lock, never
 * confirmed, with MOVED_MISS while the policy is on as read there. The answer is RECEIVED, which a replay
 * returns, and which is right whatever the policy now says.
 */
async function storeUnjudged(opts: ConfirmAtIntakeOptions, { row }: ReviewedRow) {
  const { request, response, key } = opts;
  return poolTransaction(async (tx) => {
    const [judged] = await tx.query(
      judgeStatement({ row, npi: request.receivingPharmacy.npi, now: new Date(), key }, null, {
        mayConfirm: false,
        json: row.response,
        responseId: row.response_id,
      }),
    );
    if (!judged?.id) return null;
    if (judged.enabled) await tx.queryThenCommit(recordMissUnguarded({ transferId: row.id, miss: MOVED_MISS }));
    return response;
  });
}

type JudgeInput = { row: TransferInsert; npi: string; now: Date; key: KnownApiKey | undefined };

/** Statement 1's arguments: `confirmed` is the CONFIRMED answer the row is stored with if it qualifies. */
function judgeStatement(
  { row, npi, now, key }: JudgeInput,
  policy: CachedPolicy | null,
  confirmed: { mayConfirm: boolean; json: string; responseId: string },
) {
  return storeAndJudge({
    row,
    key: key ? keyArgs(key) : null,
    npi,
    policyLockKey: policyLockKey(npi),
    boundSince: bucketStart(new Date(now.getTime() - HOUR_MS)),
    mayConfirm: confirmed.mayConfirm,
    cachedVersion: policy?.version ?? -1,
    confirmedResponse: confirmed.json,
    confirmedResponseId: confirmed.responseId,
    decidedAt: now,
    chains: env().AUDIT_CHAINS,
    duplicateDays: DUPLICATE_THERAPY_DAYS,
  });
}

type Judged = { rejected: SqlBool | null; duplicate: SqlBool | null; bound: number | null };

/** Why not, in the order the queue explains it (the request's own part was judged before the transaction). */
async function whyNot(
  tx: PoolTransaction,
  { policy, pure, judged, now }: { policy: CachedPolicy; pure: string | null; judged: Judged; now: Date },
): Promise<string | null> {
  if (!policy.owner_name) return OWNER_MISS;
  if (pure) return pure;
  if (judged.rejected) return REJECTED_MISS;
  if (judged.duplicate) return DUPLICATE_MISS;
  if ((judged.bound ?? 0) + CAP_MARGIN < policy.hourly_cap) return null;
  await tx.query(lockStoreCap(policy.store_id));
  const [recent] = await tx.query(
    countRecentConfirmations(policy.store_id, new Date(now.getTime() - HOUR_MS), policy.hourly_cap),
  );
  if ((recent?.n ?? 0) >= policy.hourly_cap) {
    return `the store's cap of ${policy.hourly_cap} automatic confirmations an hour is reached`;
  }
  return null;
}

/** The cached policy and rules are the ones in force (every change of policy bumps its version). */
function sameFacts(cached: PolicyFacts, fresh: PolicyFacts): boolean {
  return (
    cached.store_id === fresh.store_id &&
    cached.version === fresh.version &&
    cached.enabled === fresh.enabled &&
    cached.allow_listed_allergies === fresh.allow_listed_allergies &&
    cached.hourly_cap === fresh.hourly_cap &&
    cached.owner_name === fresh.owner_name &&
    cached.owner_license === fresh.owner_license &&
    cached.rx_expiry_months === fresh.rx_expiry_months &&
    cached.time_zone === fresh.time_zone &&
    JSON.stringify(cached.extra_schedules) === JSON.stringify(fresh.extra_schedules)
  );
}
