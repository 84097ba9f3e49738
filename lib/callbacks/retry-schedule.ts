// When a failed callback is tried again. The sender gives up on a RECEIVED transfer after 4 hours, so the
// schedule is front-loaded (nine attempts inside the first 4 hours, the first retries within seconds), then
// every 2 hours until at least 72 hours have passed since the first attempt; then the callback is FAILED.
// Every delay gets ±20 % jitter so that a partner coming back up is not hit by every callback at once.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay after the n-th failed automatic attempt (index n-1); past the end, the last one repeats. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  1 * HOUR,
  2 * HOUR,
];

/** Retries go on for at least this long after the first attempt. */
export const RETRY_WINDOW_MS = 72 * HOUR;

export const JITTER = 0.2;

/** A Retry-After longer than this is shortened to it: the partner asked for a pause, not for silence. */
export const MAX_RETRY_AFTER_MS = 2 * HOUR;

/** The delay before the next attempt, given how many automatic attempts have failed so far (≥ 1). */
export function retryDelayMs(failedAttempts: number, opts: { scale?: number; random?: () => number } = {}): number {
  const scale = opts.scale ?? 1;
  const random = opts.random ?? Math.random;
  const index = Math.min(Math.max(failedAttempts, 1), RETRY_DELAYS_MS.length) - 1;
  const base = (RETRY_DELAYS_MS[index] ?? 0) * scale;
  const factor = 1 - JITTER + 2 * JITTER * random();
  return Math.round(base * factor);
}

/**
 * A `Retry-After` header as milliseconds from `now`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
 * Null when absent or unreadable; never negative; at most MAX_RETRY_AFTER_MS.
 */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (!text) return null;
  let ms: number;
  if (/^\d+$/.test(text)) {
    ms = Number(text) * SECOND;
  } else {
    // An HTTP-date has a weekday, a day, a month name and a GMT time; refuse anything Date would guess at.
    if (!/^[A-Za-z]{3},\s+\d{2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}:\d{2}\s+GMT$/.test(text)) return null;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  if (!Number.isFinite(ms)) return null;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

export type RetryPlan = { kind: "retry"; at: Date } | { kind: "give-up" };

/**
 * What to do after a failed automatic attempt: retry at a time, or give up once the 72-hour window since
 * the first attempt has passed. A Retry-After the partner sent only ever postpones the next attempt.
 */
export function planRetry(input: {
  firstAttemptAt: Date;
  now: Date;
  /** Automatic attempts made so far, the one that just failed included. */
  failedAttempts: number;
  retryAfterMs?: number | null;
  scale?: number;
  random?: () => number;
}): RetryPlan {
  if (input.now.getTime() - input.firstAttemptAt.getTime() >= RETRY_WINDOW_MS) return { kind: "give-up" };
  const scheduled = retryDelayMs(input.failedAttempts, { scale: input.scale, random: input.random });
  const delay = Math.max(scheduled, input.retryAfterMs ?? 0);
  return { kind: "retry", at: new Date(input.now.getTime() + delay) };
}
