// A partner's failure rate as the sender counts it. The sender disables every request to a partner when more
// than half of that partner's answers fail within one hour, retries included (docs/senders/failure-rate.md).
// Its guides name the answers it retries automatically (408, 429, 500, 502, 503, 504) and its timeouts; those
// are the failures counted here: every 5xx, 408, 429, and an answer slower than SENDER_TIMEOUT_MS. Our other
// 4xx ERROR answers (a bad request, unknown credentials, DUPLICATE_REQUEST…) are the sender's to fix by hand
// and are not retried: they are counted apart and shown beside the rate, not in it. Client-safe: the admin
// page and the server share the thresholds.

/** The sender's cut-off: more than this share of failed answers within an hour. */
export const SENDER_CUTOFF_RATE = 0.5;
/** We warn from here, and alert critically from CRITICAL_RATE, well before the sender acts. */
export const WARNING_RATE = 0.2;
export const CRITICAL_RATE = 0.4;
/**
 * The sender's guides do not state how long it waits for our answer: an answer that took longer than this
 * is counted as the timeout it most likely was on the sender's side.
 */
export const SENDER_TIMEOUT_MS = 30_000;

export type AnswerKind = "ok" | "failure" | "client_error";

/** How the sender counts one /v1 answer. */
export function answerKindOf(status: number, elapsedMs: number): AnswerKind {
  if (status >= 500 || status === 408 || status === 429 || elapsedMs > SENDER_TIMEOUT_MS) return "failure";
  if (status >= 400) return "client_error";
  return "ok";
}

export type AnswerCounts = { answers: number; failures: number; clientErrors: number };

export type PartnerAnswerRate = AnswerCounts & {
  /** failures / answers over the last hour; null without answers. */
  failureRate: number | null;
  /** clientErrors / answers, shown apart. */
  clientErrorRate: number | null;
  level: "ok" | "warning" | "critical";
};

export const NO_ANSWERS: AnswerCounts = { answers: 0, failures: 0, clientErrors: 0 };

export function answerRateOf(counts: AnswerCounts): PartnerAnswerRate {
  const failureRate = counts.answers > 0 ? counts.failures / counts.answers : null;
  const clientErrorRate = counts.answers > 0 ? counts.clientErrors / counts.answers : null;
  const level =
    failureRate === null
      ? "ok"
      : failureRate > CRITICAL_RATE
        ? "critical"
        : failureRate > WARNING_RATE
          ? "warning"
          : "ok";
  return { ...counts, failureRate, clientErrorRate, level };
}

/** "12.5 %". */
export function percent(rate: number | null): string {
  return rate === null ? "–" : `${(Math.round(rate * 1000) / 10).toLocaleString("en-US")} %`;
}
