// One run of the `deliver-callback` job: claim the next attempt of a callback, send it, record the outcome
// and decide what comes next. The callbacks row is the truth (status, attempt_count, next_attempt_at); the
// job only wakes us up.
//
// Why an attempt can never be sent twice: attempt N is claimed by inserting callback_attempts
// (callback_id, N) in a statement (or transaction) that holds the callback's row lock and commits BEFORE the
// request goes out; (callback_id, attempt_number) is unique, so only one worker can ever own attempt N. While attempt N
// is in flight, next_attempt_at is pushed past the attempt's deadline (a lease), so a stray job for the
// same callback finds it "not due" and goes back to sleep. If the worker dies mid-attempt, the lease runs
// out and the next job claims attempt N+1 (a duplicate of a delivery is possible then, a lost one is not;
// receivers deduplicate by webhook-id).
import { openSecret, secretOwner } from "@/lib/crypto/secret-box";
import { execInPrismaTx, inPrismaTx } from "@/lib/db/kysely";
import { db } from "@/lib/db/prisma";
import { retryTransient } from "@/lib/db/retry-transient";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { observeCallbackAttempt } from "@/lib/ops/metrics";
import { serializeCallbackBody } from "@/lib/callbacks/callback-body";
import { cancelScheduledDelivery, scheduleDelivery } from "@/lib/callbacks/job-queue";
import { recordCallbackSuccesses } from "@/lib/callbacks/record-callback-successes";
import { isRefusedBySender } from "@/lib/callbacks/callback-answer";
import {
  attemptFailed,
  checkCallbackTarget,
  isSuccess,
  postCallback,
  type AttemptResult,
  type CallbackTarget,
  type TargetRefused,
} from "@/lib/callbacks/post-callback";
import { planRetry, parseRetryAfter } from "@/lib/callbacks/retry-schedule";
import { webhookHeaders } from "@/lib/callbacks/signature";
import {
  markPartnerFailing,
  markPartnerGone,
  recordAttemptAnswer,
  setLastAnswer,
  setNextAttemptAt,
  settleCallback,
} from "@/lib/callbacks/queries/record-answer";
import { selectLatestAutomaticAttempt } from "@/lib/callbacks/queries/claim-attempt";
import { isUsableOutboundHeaderName } from "@/lib/partners/credential-rules";
import {
  claimAttempt,
  lockCallback,
  type Claim,
  type DeliveryOutcome,
  type PartnerRow,
} from "@/lib/callbacks/claim-callback-attempt";

export type { DeliveryOutcome, PartnerRow };

/** A partner's opened signing secrets and credential header: opened once for all of a batch's attempts. */
export type PartnerKeys = { secrets: string[]; header: [string, string] | null } | { error: string };

/** Opens a partner's sealed secrets (the previous one while its rotation overlap lasts). Throws when one cannot be opened. */
export function openPartnerKeys(partnerId: string, partner: PartnerRow, now: Date): PartnerKeys {
  const secrets = [openSecret(partner.webhook_secret, secretOwner.webhookSecret(partnerId))];
  if (
    partner.previous_webhook_secret &&
    partner.previous_secret_expires_at &&
    partner.previous_secret_expires_at > now
  ) {
    secrets.push(openSecret(partner.previous_webhook_secret, secretOwner.webhookSecret(partnerId)));
  }
  if (!partner.outbound_header_name || !partner.outbound_header_value) return { secrets, header: null };
  const name = partner.outbound_header_name.trim();
  if (!isUsableOutboundHeaderName(name)) {
    return { error: "the partner's outbound credential header name is not usable; fix it in the partner's settings" };
  }
  const value = openSecret(partner.outbound_header_value, secretOwner.outboundHeader(partnerId));
  if (/[\r\n\0]/.test(value))
    return { error: "the partner's outbound credential value is not usable; fix it in the partner's settings" };
  return { secrets, header: [name, value] };
}

/** A body as the partner receives it: signed with its secrets now, with its own credential header (also the admin's test callback). */
export function signedCallbackRequest(
  id: string,
  body: string,
  partnerId: string,
  partner: PartnerRow,
  keys: PartnerKeys = openPartnerKeys(partnerId, partner, new Date()),
): { body: string; headers: Record<string, string> } | { error: string } {
  if ("error" in keys) return keys;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "rx-transfer-callbacks/1",
    ...webhookHeaders({ id, timestamp: Math.floor(Date.now() / 1000), body, secrets: keys.secrets }),
  };
  if (keys.header) headers[keys.header[0]] = keys.header[1];
  return { body, headers };
}

export function describeFailure(result: AttemptResult): string {
  if (result.error) return result.statusCode === null ? result.error : `HTTP ${result.statusCode}: ${result.error}`;
  return `HTTP ${result.statusCode ?? "?"}`;
}

/**
 * Records an attempt's answer and decides what comes next (a failure's retry, deadline, 410, the sender's
 * refusal and so on). Run again after a transient database error (one transaction).
 */
export async function recordOutcome(claim: Claim, result: AttemptResult, manual: boolean): Promise<DeliveryOutcome> {
  if (isSuccess(result)) {
    await recordCallbackSuccesses({ successes: [{ claim, result }] });
    return "delivered";
  }
  return retryTransient(() => recordAnswer(claim, result, manual), { what: "callback answer" });
}

async function recordAnswer(claim: Claim, result: AttemptResult, manual: boolean): Promise<DeliveryOutcome> {
  const callbackId = claim.callback.id;
  return db().$transaction(async (tx) => {
    const current = await lockCallback(tx, callbackId);
    if (!current) return "missing";
    const now = new Date();

    await execInPrismaTx(
      tx,
      recordAttemptAnswer({
        callbackId,
        attemptNumber: claim.attemptNumber,
        statusCode: result.statusCode,
        error: result.error,
        latencyMs: result.latencyMs,
        senderResponseType: result.sender?.responseType ?? null,
        senderErrorType: result.sender?.errorType ?? null,
        senderErrorDescription: result.sender?.description ?? null,
        excerpt: result.excerpt,
      }),
    );

    if (isRefusedBySender(result)) {
      // The sender received the callback and could not process it: retrying the same body cannot help, and
      // its guides treat this as a client error. A person fixes the cause and redelivers. A callback the
      // sender already acknowledged stays DELIVERED.
      if (current.status !== "DELIVERED") {
        await execInPrismaTx(
          tx,
          settleCallback(callbackId, "REFUSED", { statusCode: result.statusCode, error: describeFailure(result) }),
        );
        await cancelScheduledDelivery(tx, callbackId);
      }
      return "refused";
    }
    // The latest automatic attempt owns the retry schedule. A later one exists only when this attempt
    // outlived its lease; manual attempts ("Redeliver") never take the schedule over.
    const latest = await inPrismaTx(tx, selectLatestAutomaticAttempt(callbackId));
    const ownsSchedule = !manual && current.status === "PENDING" && latest[0]?.n === claim.attemptNumber;

    if (result.interrupted) {
      // Not the partner's fault: hand the callback straight to the next worker.
      if (ownsSchedule) {
        await execInPrismaTx(tx, setNextAttemptAt(callbackId, now));
        await scheduleDelivery(tx, callbackId, now);
      }
      return "interrupted";
    }

    if (result.statusCode === 410) {
      if (current.status === "PENDING" || current.status === "FAILED" || current.status === "REFUSED") {
        await execInPrismaTx(
          tx,
          settleCallback(callbackId, "GONE", {
            statusCode: 410,
            error: "the endpoint answered 410 Gone: no more attempts",
          }),
        );
        await cancelScheduledDelivery(tx, callbackId);
      }
      await execInPrismaTx(tx, markPartnerGone(current.partner_id, now));
      return "gone";
    }

    await execInPrismaTx(tx, markPartnerFailing(current.partner_id, claim.startedAt));
    if (current.status !== "DELIVERED") {
      await execInPrismaTx(tx, setLastAnswer(callbackId, result.statusCode, describeFailure(result)));
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
      await execInPrismaTx(tx, settleCallback(callbackId, "FAILED"));
      // A callback claimed by another's job still has its own job waiting at the lease's end.
      await cancelScheduledDelivery(tx, callbackId);
      return "failed";
    }
    await execInPrismaTx(tx, setNextAttemptAt(callbackId, plan.at));
    await scheduleDelivery(tx, callbackId, plan.at);
    return "retry-scheduled";
  });
}

/** What the attempts of one batch share: its partner's keys and its URL's check, each done once (drain-callbacks.ts). */
export type BatchShared = { keys: () => PartnerKeys; target: Promise<CallbackTarget | TargetRefused> };

/** The shared parts of a batch whose claims are all `partner`'s, made at one instant. */
export function batchShared(partnerId: string, partner: PartnerRow): BatchShared {
  let opened: { keys: PartnerKeys } | { thrown: unknown } | null = null;
  return {
    // Lazily, and a failure to open is each attempt's own error (as it is for a single attempt).
    keys: () => {
      if (!opened) {
        try {
          opened = { keys: openPartnerKeys(partnerId, partner, new Date()) };
        } catch (err) {
          opened = { thrown: err };
        }
      }
      if ("thrown" in opened) throw opened.thrown;
      return opened.keys;
    },
    target: checkCallbackTarget(targetInput(partner.callback_url)),
  };
}

const targetInput = (url: string) => ({
  url,
  allowPrivate: env().CALLBACK_ALLOW_PRIVATE_NETWORKS,
  allowInsecureHttp: env().CALLBACK_ALLOW_INSECURE_HTTP,
});

/** Signs and sends one claimed attempt; never throws (a bug or an unreadable secret is the attempt's error). */
export async function sendAttempt(claim: Claim, signal?: AbortSignal, shared?: BatchShared): Promise<AttemptResult> {
  try {
    const { id, payload, partner_id } = claim.callback;
    const request = signedCallbackRequest(
      id,
      serializeCallbackBody(payload),
      partner_id,
      claim.partner,
      shared ? shared.keys() : undefined,
    );
    if ("error" in request) return attemptFailed(request.error);
    return await postCallback({
      ...targetInput(claim.partner.callback_url),
      body: request.body,
      headers: request.headers,
      timeoutMs: env().CALLBACK_TIMEOUT_MS,
      signal,
      target: shared?.target,
    });
  } catch (err) {
    // Recorded on the attempt rather than left dangling.
    log("error", "callback attempt could not be made", {
      callbackId: claim.callback.id,
      attempt: claim.attemptNumber,
      ...errorFields(err),
    });
    return attemptFailed("internal error preparing the callback");
  }
}

/** The attempt's metrics and log line, once its outcome is recorded. */
export function reportAttempt(claim: Claim, result: AttemptResult, manual: boolean, outcome: DeliveryOutcome): void {
  // The callback row is created with the decision, in its transaction: its creation time is the decision's.
  observeCallbackAttempt({
    ...result,
    delivered: outcome === "delivered",
    refused: isRefusedBySender(result),
    decidedAt: claim.callback.created_at,
  });
  log(outcome === "delivered" ? "info" : "warn", "callback attempt", {
    callbackId: claim.callback.id,
    transferId: claim.callback.transfer_id,
    partnerId: claim.callback.partner_id,
    attempt: claim.attemptNumber,
    manual,
    statusCode: result.statusCode,
    error: result.error,
    senderResponseType: result.sender?.responseType,
    latencyMs: result.latencyMs,
    outcome,
  });
}

/** Runs one delivery job for one callback. Throws only on database trouble (graphile-worker then retries the job). */
export async function deliverCallback(
  callbackId: string,
  opts: { manual?: boolean; signal?: AbortSignal } = {},
): Promise<DeliveryOutcome> {
  const manual = opts.manual ?? false;
  const claim = await claimAttempt(callbackId, manual);
  if (typeof claim === "string") {
    log("debug", "callback job skipped", { callbackId, manual, outcome: claim });
    return claim;
  }
  const result = await sendAttempt(claim, opts.signal);
  const outcome = await recordOutcome(claim, result, manual);
  reportAttempt(claim, result, manual, outcome);
  return outcome;
}
