// What the queue shows about a transfer's callback and a partner's endpoint, as pure functions of rows the
// dashboard already reads (the transfer's callbacks row and its status; partners' two flags). The
// sender treats a RECEIVED transfer as failed 4 hours after it sent it, so the warning is about that clock.
import { SENDER_WINDOW_MS } from "@/lib/interface";
import type { CallbackStatus } from "@/generated/prisma/enums";

/** A callback's status as the database defines it. */
export type CallbackStatusValue = CallbackStatus;

export type CallbackHealthInput = {
  receivedAt: Date;
  callbackStatus: CallbackStatusValue | null;
  /** The callbacks row, when the dashboard has it at hand (more precise labels); optional. */
  callback?: {
    attemptCount: number;
    lastStatusCode: number | null;
    lastError: string | null;
    nextAttemptAt: Date | null;
    deliveredAt: Date | null;
  } | null;
};

export type CallbackState =
  /** No decision yet: no callback owed so far. */
  | "none"
  /** Decided; the first attempt is queued or in flight. */
  | "sending"
  /** At least one attempt failed; more are scheduled. */
  | "retrying"
  | "delivered"
  /** Retried for 72 hours without success. */
  | "failed"
  /** The endpoint answered 410 Gone. */
  | "gone"
  /** The sender's callback API answered RX_CALLBACK_ERROR: received, not processed. */
  | "refused";

export type CallbackHealth = {
  state: CallbackState;
  /** Mark the transfer in the queue: its callback is not getting through. */
  isFailing: boolean;
  /** When the sender stops waiting (received + 4 h). */
  windowClosesAt: Date;
  /** Not delivered, and the sender's window closes within `warnBeforeMs` (or has closed). */
  isWindowWarning: boolean;
  isWindowClosed: boolean;
  /** A short sentence for a badge's title or a screen reader. */
  summary: string;
};

/** Warn this long before the sender's window closes. */
export const WINDOW_WARNING_MS = 60 * 60 * 1000;

const minutes = (ms: number) => Math.max(0, Math.round(ms / 60_000));

function failureText(callback: CallbackHealthInput["callback"]): string {
  if (!callback) return "";
  const last = callback.lastStatusCode !== null ? `HTTP ${callback.lastStatusCode}` : (callback.lastError ?? "");
  const attempts = `${callback.attemptCount} attempt${callback.attemptCount === 1 ? "" : "s"}`;
  return last ? ` (${attempts}, last: ${last})` : ` (${attempts})`;
}

export function callbackHealth(
  input: CallbackHealthInput,
  now: Date = new Date(),
  opts: { warnBeforeMs?: number } = {},
): CallbackHealth {
  const warnBefore = opts.warnBeforeMs ?? WINDOW_WARNING_MS;
  const windowClosesAt = new Date(input.receivedAt.getTime() + SENDER_WINDOW_MS);
  const remaining = windowClosesAt.getTime() - now.getTime();
  const { callbackStatus, callback } = input;

  let state: CallbackState;
  if (callbackStatus === null) state = "none";
  else if (callbackStatus === "DELIVERED") state = "delivered";
  else if (callbackStatus === "FAILED") state = "failed";
  else if (callbackStatus === "GONE") state = "gone";
  else if (callbackStatus === "REFUSED") state = "refused";
  else state = callback && (callback.lastStatusCode !== null || callback.lastError !== null) ? "retrying" : "sending";

  const delivered = state === "delivered";
  const isWindowClosed = !delivered && remaining <= 0;
  const isWindowWarning = !delivered && remaining <= warnBefore;
  const isFailing = state === "retrying" || state === "failed" || state === "gone" || state === "refused";

  const window = isWindowClosed
    ? "the sender's 4-hour window has closed"
    : `the sender's 4-hour window closes in ${minutes(remaining)} min`;
  const summary = {
    none: `Not decided yet; ${window}.`,
    sending: `Callback being sent; ${window}.`,
    retrying: `Callback failing${failureText(callback)}, retrying; ${window}.`,
    delivered: `Callback delivered${callback?.deliveredAt ? ` at ${callback.deliveredAt.toISOString()}` : ""}.`,
    failed: `Callback failed after 72 hours of retries${failureText(callback)}.`,
    gone: "Callback stopped: the sender's endpoint answered 410 Gone.",
    refused: `Callback refused by the sender${callback?.lastError ? ` (${callback.lastError})` : ""}: not delivered; fix the cause, then redeliver.`,
  }[state];

  return { state, isFailing, windowClosesAt, isWindowWarning, isWindowClosed, summary };
}

export type PartnerCallbackHealth = {
  state: "ok" | "failing" | "gone";
  /** Flag the partner: its endpoint answered 410, or has kept failing for `flagAfterMs`. */
  isFlagged: boolean;
  since: Date | null;
};

/** A failing endpoint is flagged once it has kept failing this long (a single hiccup is not news). */
export const PARTNER_FLAG_AFTER_MS = 5 * 60 * 1000;

export function partnerCallbackHealth(
  partner: { callbackFailingSince: Date | null; callbackGoneAt: Date | null },
  now: Date = new Date(),
  opts: { flagAfterMs?: number } = {},
): PartnerCallbackHealth {
  if (partner.callbackGoneAt) return { state: "gone", isFlagged: true, since: partner.callbackGoneAt };
  if (partner.callbackFailingSince) {
    const flagAfter = opts.flagAfterMs ?? PARTNER_FLAG_AFTER_MS;
    return {
      state: "failing",
      isFlagged: now.getTime() - partner.callbackFailingSince.getTime() >= flagAfter,
      since: partner.callbackFailingSince,
    };
  }
  return { state: "ok", isFlagged: false, since: null };
}
