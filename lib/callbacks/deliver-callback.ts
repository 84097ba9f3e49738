// One run of the `deliver-callback` job: claim the next attempt of a callback, send it, record the outcome
// and decide what comes next. The callbacks row is the truth (status, attempt_count, next_attempt_at); the
// job only wakes us up.
//
// Why an attempt can never be sent twice: attempt N is claimed by inserting callback_attempts
// (callback_id, N) in a transaction that holds the callback's row lock and commits BEFORE the request goes
// out; (callback_id, attempt_number) is unique, so only one worker can ever own attempt N. While attempt N
// is in flight, next_attempt_at is pushed past the attempt's deadline (a lease), so a stray job for the
// same callback finds it "not due" and goes back to sleep. If the worker dies mid-attempt, the lease runs
// out and the next job claims attempt N+1 (a duplicate of a delivery is possible then, a lost one is not;
// receivers deduplicate by webhook-id).
import { openSecret, secretOwner } from "@/lib/crypto/secret-box";
import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { observeCallbackAttempt } from "@/lib/ops/metrics";
import { serializeCallbackBody } from "@/lib/callbacks/callback-body";
import { cancelScheduledDelivery, removeScheduledDeliverySql, scheduleDelivery } from "@/lib/callbacks/job-queue";
import { isSuccess, postCallback, type AttemptResult } from "@/lib/callbacks/post-callback";
import { planRetry, parseRetryAfter } from "@/lib/callbacks/retry-schedule";
import { webhookHeaders } from "@/lib/callbacks/signature";

type Tx = Prisma.TransactionClient;
type Status = "PENDING" | "DELIVERED" | "FAILED" | "GONE";

type CallbackRow = {
  id: string;
  transfer_id: string;
  partner_id: string;
  payload: unknown;
  status: Status;
  attempt_count: number;
  next_attempt_at: Date | null;
  created_at: Date;
  /** The database's clock, which graphile-worker's run_at is compared with. */
  db_now: Date;
};

export type PartnerRow = {
  callback_url: string;
  webhook_secret: string;
  previous_webhook_secret: string | null;
  previous_secret_expires_at: Date | null;
  outbound_header_name: string | null;
  outbound_header_value: string | null;
};

export type DeliveryOutcome =
  | "missing"
  | "not-pending"
  | "not-due"
  | "claimed-elsewhere"
  | "delivered"
  | "gone"
  | "retry-scheduled"
  | "failed"
  | "manual-failed"
  | "interrupted";

/** Slack on top of the attempt's own deadline before another worker may assume the attempt died. */
const LEASE_SLACK_MS = 5_000;
/** A job that wakes up this little before next_attempt_at (clock skew, poll timing) just goes ahead. */
const EARLY_TOLERANCE_MS = 500;

export const attemptLeaseMs = () => env().CALLBACK_TIMEOUT_MS + LEASE_SLACK_MS;

const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const RESERVED_HEADERS = new Set(["host", "content-length", "content-type", "connection", "transfer-encoding", "webhook-id", "webhook-timestamp", "webhook-signature"]);

type Claim = {
  callback: CallbackRow;
  partner: PartnerRow;
  attemptNumber: number;
  automaticAttempts: number;
  startedAt: Date;
};

async function lockCallback(tx: Tx, callbackId: string): Promise<CallbackRow | undefined> {
  const rows = await tx.$queryRaw<CallbackRow[]>`
    SELECT id, transfer_id, partner_id, payload, status::text AS status, attempt_count, next_attempt_at, created_at,
           clock_timestamp() AS db_now
      FROM callbacks WHERE id = ${callbackId} FOR UPDATE`;
  return rows[0];
}

/** The callback, locked, with its partner's delivery settings (read in the same statement). */
async function lockCallbackForAttempt(tx: Tx, callbackId: string): Promise<{ callback: CallbackRow; partner: PartnerRow } | undefined> {
  const rows = await tx.$queryRaw<(CallbackRow & { [K in keyof PartnerRow]: PartnerRow[K] | null })[]>`
    SELECT c.id, c.transfer_id, c.partner_id, c.payload, c.status::text AS status, c.attempt_count, c.next_attempt_at,
           c.created_at, clock_timestamp() AS db_now,
           p.callback_url, p.webhook_secret, p.previous_webhook_secret, p.previous_secret_expires_at,
           p.outbound_header_name, p.outbound_header_value
      FROM callbacks c LEFT JOIN partners p ON p.id = c.partner_id
     WHERE c.id = ${callbackId} FOR UPDATE OF c`;
  const row = rows[0];
  if (!row) return undefined;
  const { callback_url, webhook_secret, previous_webhook_secret, previous_secret_expires_at, outbound_header_name, outbound_header_value, ...callback } = row;
  if (callback_url === null || webhook_secret === null) throw new Error(`callback ${callbackId} names a partner that does not exist`);
  return {
    callback,
    partner: { callback_url, webhook_secret, previous_webhook_secret, previous_secret_expires_at, outbound_header_name, outbound_header_value },
  };
}

// Statements are few on purpose: a delivery's bookkeeping, not the POST, is what limits callbacks per second.
async function claimAttempt(callbackId: string, manual: boolean): Promise<Claim | DeliveryOutcome> {
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
        await tx.$executeRaw`
          UPDATE callback_attempts
             SET error = 'interrupted: no answer was recorded (the worker stopped during the attempt)'
           WHERE callback_id = ${callbackId} AND status_code IS NULL AND error IS NULL
             AND started_at < ${new Date(now.getTime() - attemptLeaseMs())}::timestamptz`;
      }
    }
    const attemptNumber = callback.attempt_count + 1;
    const lease = manual ? callback.next_attempt_at : new Date(now.getTime() + attemptLeaseMs());
    // The attempt row is the claim; the callback row moves on only if the claim was ours.
    const claimed = await tx.$queryRaw<{ attempt_count: number }[]>`
      WITH attempt AS (
        INSERT INTO callback_attempts (callback_id, attempt_number, started_at, manual)
        VALUES (${callbackId}, ${attemptNumber}, ${now}::timestamptz, ${manual})
        ON CONFLICT (callback_id, attempt_number) DO NOTHING
        RETURNING attempt_number)
      UPDATE callbacks SET attempt_count = ${attemptNumber}, next_attempt_at = ${lease}::timestamptz
       WHERE id = ${callbackId} AND EXISTS (SELECT 1 FROM attempt)
      RETURNING attempt_count`;
    if (claimed.length === 0) return "claimed-elsewhere";
    const automaticAttempts = firstAttempt
      ? manual ? 0 : 1
      : ((
          await tx.$queryRaw<{ n: number }[]>`
            SELECT count(*)::int AS n FROM callback_attempts WHERE callback_id = ${callbackId} AND NOT manual`
        )[0]?.n ?? attemptNumber);
    return { callback, partner, attemptNumber, automaticAttempts, startedAt: now };
  });
}

/** Headers and body of one attempt: Standard Webhooks headers signed now, and the partner's own credential. */
function buildRequest(claim: Claim): { body: string; headers: Record<string, string> } | { error: string } {
  return signedCallbackRequest(claim.callback.id, serializeCallbackBody(claim.callback.payload), claim.callback.partner_id, claim.partner);
}

/** A body as the partner receives it: signed with its secrets now, with its own credential header (also the admin's test callback). */
export function signedCallbackRequest(id: string, body: string, partnerId: string, partner: PartnerRow): { body: string; headers: Record<string, string> } | { error: string } {
  const now = new Date();
  const secrets = [openSecret(partner.webhook_secret, secretOwner.webhookSecret(partnerId))];
  if (partner.previous_webhook_secret && partner.previous_secret_expires_at && partner.previous_secret_expires_at > now) {
    secrets.push(openSecret(partner.previous_webhook_secret, secretOwner.webhookSecret(partnerId)));
  }
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "rx-transfer-callbacks/1",
    ...webhookHeaders({ id, timestamp: Math.floor(now.getTime() / 1000), body, secrets }),
  };
  if (partner.outbound_header_name && partner.outbound_header_value) {
    const name = partner.outbound_header_name.trim();
    if (!HEADER_TOKEN.test(name) || RESERVED_HEADERS.has(name.toLowerCase())) {
      return { error: "the partner's outbound credential header name is not usable; fix it in the partner's settings" };
    }
    const value = openSecret(partner.outbound_header_value, secretOwner.outboundHeader(partnerId));
    if (/[\r\n\0]/.test(value)) return { error: "the partner's outbound credential value is not usable; fix it in the partner's settings" };
    headers[name] = value;
  }
  return { body, headers };
}

function describeFailure(result: AttemptResult): string {
  if (result.error) return result.statusCode === null ? result.error : `HTTP ${result.statusCode}: ${result.error}`;
  return `HTTP ${result.statusCode ?? "?"}`;
}

async function setTransferCallbackStatus(tx: Tx, transferId: string, status: Status): Promise<void> {
  await tx.$executeRaw`UPDATE transfers SET callback_status = ${status}::"CallbackStatus" WHERE id = ${transferId}`;
}

async function recordOutcome(claim: Claim, result: AttemptResult, manual: boolean): Promise<DeliveryOutcome> {
  const callbackId = claim.callback.id;
  return db().$transaction(async (tx) => {
    const current = await lockCallback(tx, callbackId);
    if (!current) return "missing";
    const now = new Date();

    if (isSuccess(result.statusCode)) {
      // One statement: the attempt's answer; the callback and its transfer DELIVERED (unless already) with
      // the job cancelled; the partner's failure marks cleared, written only when set (an unconditional
      // write would lock the partner's row, and concurrent deliveries to that partner would queue on it).
      await tx.$executeRaw`
        WITH attempt AS (
          UPDATE callback_attempts SET status_code = ${result.statusCode}, error = ${result.error}, latency_ms = ${result.latencyMs}
           WHERE callback_id = ${callbackId} AND attempt_number = ${claim.attemptNumber}),
        delivered AS (
          UPDATE callbacks SET status = 'DELIVERED', delivered_at = ${now}::timestamptz, next_attempt_at = NULL,
                 last_status_code = ${result.statusCode}, last_error = NULL
           WHERE id = ${callbackId} AND status <> 'DELIVERED'
          RETURNING transfer_id),
        transfer AS (
          UPDATE transfers SET callback_status = 'DELIVERED' WHERE id IN (SELECT transfer_id FROM delivered)),
        partner AS (
          UPDATE partners SET callback_failing_since = NULL, callback_gone_at = NULL
           WHERE id = ${current.partner_id} AND (callback_failing_since IS NOT NULL OR callback_gone_at IS NOT NULL))
        SELECT ${removeScheduledDeliverySql(callbackId)} FROM delivered`;
      return "delivered";
    }

    await tx.$executeRaw`
      UPDATE callback_attempts
         SET status_code = ${result.statusCode}, error = ${result.error}, latency_ms = ${result.latencyMs}
       WHERE callback_id = ${callbackId} AND attempt_number = ${claim.attemptNumber}`;
    // The latest automatic attempt owns the retry schedule. A later one exists only when this attempt
    // outlived its lease; manual attempts ("Redeliver") never take the schedule over.
    const latest = await tx.$queryRaw<{ n: number | null }[]>`
      SELECT max(attempt_number)::int AS n FROM callback_attempts WHERE callback_id = ${callbackId} AND NOT manual`;
    const ownsSchedule = !manual && current.status === "PENDING" && latest[0]?.n === claim.attemptNumber;

    if (result.interrupted) {
      // Not the partner's fault: hand the callback straight to the next worker.
      if (ownsSchedule) {
        await tx.$executeRaw`UPDATE callbacks SET next_attempt_at = ${now}::timestamptz WHERE id = ${callbackId}`;
        await scheduleDelivery(tx, callbackId, now);
      }
      return "interrupted";
    }

    if (result.statusCode === 410) {
      if (current.status === "PENDING" || current.status === "FAILED") {
        await tx.$executeRaw`
          UPDATE callbacks SET status = 'GONE', next_attempt_at = NULL, last_status_code = 410,
                 last_error = 'the endpoint answered 410 Gone: no more attempts'
           WHERE id = ${callbackId}`;
        await setTransferCallbackStatus(tx, current.transfer_id, "GONE");
        await cancelScheduledDelivery(tx, callbackId);
      }
      await tx.$executeRaw`
        UPDATE partners SET callback_gone_at = coalesce(callback_gone_at, ${now}::timestamptz) WHERE id = ${current.partner_id}`;
      return "gone";
    }

    await tx.$executeRaw`
      UPDATE partners SET callback_failing_since = ${claim.startedAt}::timestamptz
       WHERE id = ${current.partner_id} AND callback_failing_since IS NULL`;
    if (current.status !== "DELIVERED") {
      await tx.$executeRaw`
        UPDATE callbacks SET last_status_code = ${result.statusCode}, last_error = ${describeFailure(result)}
         WHERE id = ${callbackId}`;
    }
    if (!ownsSchedule) return manual ? "manual-failed" : "claimed-elsewhere";

    const plan = planRetry({
      firstAttemptAt: current.created_at,
      now,
      failedAttempts: claim.automaticAttempts,
      retryAfterMs: parseRetryAfter(result.retryAfter, now),
      scale: env().CALLBACK_RETRY_SCALE,
    });
    if (plan.kind === "give-up") {
      await tx.$executeRaw`UPDATE callbacks SET status = 'FAILED', next_attempt_at = NULL WHERE id = ${callbackId}`;
      await setTransferCallbackStatus(tx, current.transfer_id, "FAILED");
      return "failed";
    }
    await tx.$executeRaw`UPDATE callbacks SET next_attempt_at = ${plan.at}::timestamptz WHERE id = ${callbackId}`;
    await scheduleDelivery(tx, callbackId, plan.at);
    return "retry-scheduled";
  });
}

/** Runs one delivery job. Throws only on database trouble (graphile-worker then retries the job). */
export async function deliverCallback(callbackId: string, opts: { manual?: boolean; signal?: AbortSignal } = {}): Promise<DeliveryOutcome> {
  const manual = opts.manual ?? false;
  const claim = await claimAttempt(callbackId, manual);
  if (typeof claim === "string") {
    log("debug", "callback job skipped", { callbackId, manual, outcome: claim });
    return claim;
  }
  let result: AttemptResult;
  try {
    const request = buildRequest(claim);
    result =
      "error" in request
        ? { statusCode: null, error: request.error, latencyMs: 0, retryAfter: null, interrupted: false }
        : await postCallback({
            url: claim.partner.callback_url,
            body: request.body,
            headers: request.headers,
            timeoutMs: env().CALLBACK_TIMEOUT_MS,
            allowPrivate: env().CALLBACK_ALLOW_PRIVATE_NETWORKS,
            allowInsecureHttp: env().CALLBACK_ALLOW_INSECURE_HTTP,
            signal: opts.signal,
          });
  } catch (err) {
    // A bug or an unreadable stored secret: record it on the attempt rather than leave it dangling.
    log("error", "callback attempt could not be made", { callbackId, attempt: claim.attemptNumber, ...errorFields(err) });
    result = { statusCode: null, error: "internal error preparing the callback", latencyMs: 0, retryAfter: null, interrupted: false };
  }
  const outcome = await recordOutcome(claim, result, manual);
  // The callback row is created with the decision, in its transaction: its creation time is the decision's.
  observeCallbackAttempt({ ...result, delivered: outcome === "delivered", decidedAt: claim.callback.created_at });
  log(outcome === "delivered" ? "info" : "warn", "callback attempt", {
    callbackId,
    transferId: claim.callback.transfer_id,
    partnerId: claim.callback.partner_id,
    attempt: claim.attemptNumber,
    manual,
    statusCode: result.statusCode,
    error: result.error,
    latencyMs: result.latencyMs,
    outcome,
  });
  return outcome;
}
