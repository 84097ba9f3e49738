// Claiming the next attempt of a callback: the attempt row (callback_id, n) is inserted, and the callback's
// lease moved, only by the one worker whose insert wins (see deliver-callback.ts for why an attempt can
// never be sent twice).
import type { Prisma } from "@/generated/prisma/client";
import type { CallbackStatus } from "@/generated/prisma/enums";
import {
  lockCallback as lockCallbackStatement,
  lockCallbackForAttempt as lockForAttemptStatement,
  type CallbackRow,
  type PartnerRow,
} from "@/lib/callbacks/queries/callback-row";
import {
  claimDueAttemptStatement,
  countAutomaticAttempts,
  insertAttemptClaim,
  markInterruptedAttempts,
} from "@/lib/callbacks/queries/claim-attempt";
import { execInPrismaTx, inPrismaTx } from "@/lib/db/kysely";
import { poolQuery } from "@/lib/db/pool-query";
import { retryTransient } from "@/lib/db/retry-transient";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { scheduleDelivery } from "@/lib/callbacks/job-queue";

export type { CallbackRow, PartnerRow } from "@/lib/callbacks/queries/callback-row";

export type Tx = Prisma.TransactionClient;
export type Status = CallbackStatus;

export type DeliveryOutcome =
  | "missing"
  | "not-pending"
  | "not-due"
  | "claimed-elsewhere"
  | "delivered"
  | "gone"
  | "refused"
  | "retry-scheduled"
  | "failed"
  | "manual-failed"
  | "interrupted";

/** Slack on top of the attempt's own deadline before another worker may assume the attempt died. */
const LEASE_SLACK_MS = 5_000;
/** A job that wakes up this little before next_attempt_at (clock skew, poll timing) just goes ahead. */
export const EARLY_TOLERANCE_MS = 500;

export const attemptLeaseMs = () => env().CALLBACK_TIMEOUT_MS + LEASE_SLACK_MS;

export type Claim = {
  callback: CallbackRow;
  partner: PartnerRow;
  attemptNumber: number;
  automaticAttempts: number;
  startedAt: Date;
};

export async function lockCallback(tx: Tx, callbackId: string): Promise<CallbackRow | undefined> {
  const rows = await inPrismaTx(tx, lockCallbackStatement(callbackId));
  return rows[0];
}

/** The callback, locked, with its partner's delivery settings (read in the same statement). */
async function lockCallbackForAttempt(
  tx: Tx,
  callbackId: string,
): Promise<{ callback: CallbackRow; partner: PartnerRow } | undefined> {
  const rows = await inPrismaTx(tx, lockForAttemptStatement(callbackId));
  const row = rows[0];
  if (!row) return undefined;
  if (row.callback_url === null || row.webhook_secret === null)
    throw new Error(`callback ${callbackId} names a partner that does not exist`);
  return splitPartner({ ...row, callback_url: row.callback_url, webhook_secret: row.webhook_secret });
}

/** A row of a callback joined with its partner, split into the two. */
function splitPartner(row: CallbackRow & PartnerRow): { callback: CallbackRow; partner: PartnerRow } {
  const {
    callback_url,
    webhook_secret,
    previous_webhook_secret,
    previous_secret_expires_at,
    outbound_header_name,
    outbound_header_value,
    ...callback
  } = row;
  return {
    callback,
    partner: {
      callback_url,
      webhook_secret,
      previous_webhook_secret,
      previous_secret_expires_at,
      outbound_header_name,
      outbound_header_value,
    },
  };
}

/** The claim a claiming statement's row stands for (this one's and claim-due-callbacks.ts's). */
export function claimOf(
  row: CallbackRow & PartnerRow & { claimed: number; prior_automatic: number },
  startedAt: Date,
): Claim {
  const { claimed, prior_automatic, ...joined } = row;
  return {
    ...splitPartner(joined),
    attemptNumber: claimed,
    // The statement's snapshot does not see its own insert: this attempt is one more.
    automaticAttempts: prior_automatic + 1,
    startedAt,
  };
}

/**
 * The usual case in one statement (no transaction round trips): an automatic attempt of a PENDING callback
 * that is due. Locks the callback, marks attempts whose worker died as interrupted, inserts the attempt row
 * (the claim) and moves the callback's lease only if that insert was ours, and reads the partner. Returns
 * undefined when the callback is not such a case (missing, settled, early or leased): the full path below
 * then decides what to do, as before.
 */
async function claimDueAttempt(callbackId: string): Promise<Claim | "claimed-elsewhere" | undefined> {
  const now = new Date();
  const lease = new Date(now.getTime() + attemptLeaseMs());
  const interruptedBefore = new Date(now.getTime() - attemptLeaseMs());
  // On the pool, without Prisma's per-statement cost (lib/db/pool-query.ts).
  const rows = await poolQuery(
    claimDueAttemptStatement({ callbackId, earlyToleranceMs: EARLY_TOLERANCE_MS, now, lease, interruptedBefore }),
  );
  const row = rows[0];
  if (!row) return undefined;
  if (row.claimed === null) return "claimed-elsewhere";
  return claimOf({ ...row, claimed: row.claimed }, now);
}

/**
 * Claims the callback's next attempt, or says why not. Run again after a transient database error: each
 * path is one statement or one transaction.
 */
export async function claimAttempt(callbackId: string, manual: boolean): Promise<Claim | DeliveryOutcome> {
  return retryTransient(() => claimAttemptOnce(callbackId, manual), { what: "callback claim" });
}

// Statements are few on purpose: a delivery's bookkeeping, not the POST, is what limits callbacks per second.
async function claimAttemptOnce(callbackId: string, manual: boolean): Promise<Claim | DeliveryOutcome> {
  if (!manual) {
    const fast = await claimDueAttempt(callbackId);
    if (fast !== undefined) return fast;
  }
  return db().$transaction(async (tx) => {
    const locked = await lockCallbackForAttempt(tx, callbackId);
    if (!locked) return "missing";
    const { callback, partner } = locked;
    const now = new Date();
    const firstAttempt = callback.attempt_count === 0;
    if (!manual) {
      if (callback.status !== "PENDING") return "not-pending";
      const due = callback.next_attempt_at;
      if (due && due.getTime() - callback.db_now.getTime() > EARLY_TOLERANCE_MS) {
        // Early, or another worker holds the lease of an attempt in flight: sleep until then.
        await scheduleDelivery(tx, callbackId, due);
        return "not-due";
      }
      // Attempts whose worker died before recording anything: say so on the timeline.
      if (!firstAttempt) {
        await execInPrismaTx(tx, markInterruptedAttempts(callbackId, new Date(now.getTime() - attemptLeaseMs())));
      }
    }
    const attemptNumber = callback.attempt_count + 1;
    const lease = manual ? callback.next_attempt_at : new Date(now.getTime() + attemptLeaseMs());
    // The attempt row is the claim; the callback row moves on only if the claim was ours.
    const claimed = await inPrismaTx(tx, insertAttemptClaim({ callbackId, attemptNumber, now, manual, lease }));
    if (claimed.length === 0) return "claimed-elsewhere";
    const automaticAttempts = firstAttempt
      ? manual
        ? 0
        : 1
      : ((await inPrismaTx(tx, countAutomaticAttempts(callbackId)))[0]?.n ?? attemptNumber);
    return { callback, partner, attemptNumber, automaticAttempts, startedAt: now };
  });
}
