// One callback's answer (deliver-callback.ts's recordOutcome), inside its Prisma transaction: the attempt's
// answer, the callback settled or moved on, the partner gone or failing.
import { sql } from "kysely";
import type { CallbackStatus } from "@/generated/kysely/enums";
import { tstz } from "@/lib/callbacks/queries/callback-row";
import { sqlDb } from "@/lib/db/kysely";

export function recordAttemptAnswer(a: {
  callbackId: string;
  attemptNumber: number;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  senderResponseType: string | null;
  senderErrorType: string | null;
  senderErrorDescription: string | null;
  excerpt: string | null;
}) {
  return sqlDb()
    .updateTable("callback_attempts")
    .set({
      status_code: a.statusCode,
      error: a.error,
      latency_ms: a.latencyMs,
      sender_response_type: a.senderResponseType,
      sender_error_type: a.senderErrorType,
      sender_error_description: a.senderErrorDescription,
      response_excerpt: a.excerpt,
    })
    .where("callback_id", "=", a.callbackId)
    .where("attempt_number", "=", a.attemptNumber);
}

/** The callback settled (REFUSED, GONE, FAILED): no next attempt, and its last answer when given. */
export function settleCallback(
  callbackId: string,
  status: "REFUSED" | "GONE" | "FAILED",
  last?: { statusCode: number | null; error: string },
) {
  return sqlDb()
    .updateTable("callbacks")
    .set({
      status: sql<CallbackStatus>`${status}::"CallbackStatus"`,
      next_attempt_at: null,
      ...(last ? { last_status_code: last.statusCode, last_error: last.error } : {}),
    })
    .where("id", "=", callbackId);
}

export function setNextAttemptAt(callbackId: string, at: Date) {
  return sqlDb()
    .updateTable("callbacks")
    .set({ next_attempt_at: tstz(at) })
    .where("id", "=", callbackId);
}

export function setLastAnswer(callbackId: string, statusCode: number | null, error: string) {
  return sqlDb()
    .updateTable("callbacks")
    .set({ last_status_code: statusCode, last_error: error })
    .where("id", "=", callbackId);
}

/** The partner marked gone (410), keeping the first time it was. */
export function markPartnerGone(partnerId: string, at: Date) {
  return sqlDb()
    .updateTable("partners")
    .set((eb) => ({ callback_gone_at: eb.fn.coalesce("callback_gone_at", tstz(at)) }))
    .where("id", "=", partnerId);
}

/** The partner marked failing since `since`, unless it already is. */
export function markPartnerFailing(partnerId: string, since: Date) {
  return sqlDb()
    .updateTable("partners")
    .set({ callback_failing_since: tstz(since) })
    .where("id", "=", partnerId)
    .where("callback_failing_since", "is", null);
}
