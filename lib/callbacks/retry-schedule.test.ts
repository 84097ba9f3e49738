import { describe, expect, it } from "vitest";
import {
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  planRetry,
  RETRY_DELAYS_MS,
  RETRY_WINDOW_MS,
  retryDelayMs,
} from "@/lib/callbacks/retry-schedule";
import { SENDER_WINDOW_MS } from "@/lib/interface";

const HOUR = 3_600_000;
const mid = () => 0.5; // no jitter
const lowest = () => 0;
const highest = () => 0.999999;

describe("retry schedule", () => {
  it("retries within seconds first, then backs off: 5 s, 30 s, 2 min, 5 min, 15 min, 30 min, 1 h, then every 2 h", () => {
    const delays = Array.from({ length: 10 }, (_, i) => retryDelayMs(i + 1, { random: mid }));
    expect(delays).toEqual([5_000, 30_000, 120_000, 300_000, 900_000, 1_800_000, HOUR, 2 * HOUR, 2 * HOUR, 2 * HOUR]);
  });

  it("is front-loaded: at least 8 attempts before the sender's 4-hour window closes, even with the longest jitter", () => {
    let at = 0;
    let attempts = 1; // the immediate first attempt
    for (let failed = 1; ; failed++) {
      at += retryDelayMs(failed, { random: highest });
      if (at >= SENDER_WINDOW_MS) break;
      attempts++;
    }
    expect(attempts).toBeGreaterThanOrEqual(8);
  });

  it("adds at most ±20 % jitter", () => {
    for (let i = 1; i <= RETRY_DELAYS_MS.length; i++) {
      const base = RETRY_DELAYS_MS[i - 1]!;
      expect(retryDelayMs(i, { random: lowest })).toBe(Math.round(base * 0.8));
      expect(retryDelayMs(i, { random: highest })).toBeLessThanOrEqual(Math.round(base * 1.2));
      expect(retryDelayMs(i, { random: highest })).toBeGreaterThan(Math.round(base * 1.19));
    }
    const samples = new Set(Array.from({ length: 50 }, () => retryDelayMs(1)));
    expect(samples.size).toBeGreaterThan(10);
  });

  it("scales the delays (for tests) but not the 72-hour window", () => {
    expect(retryDelayMs(1, { random: mid, scale: 0.01 })).toBe(50);
    const first = new Date("2026-01-01T00:00:00Z");
    const late = new Date(first.getTime() + RETRY_WINDOW_MS - 1);
    expect(planRetry({ firstAttemptAt: first, now: late, failedAttempts: 30, scale: 0.001, random: mid }).kind).toBe(
      "retry",
    );
  });

  it("keeps retrying for 72 hours after the first attempt, then gives up", () => {
    const first = new Date("2026-01-01T00:00:00Z");
    const at = (ms: number) => new Date(first.getTime() + ms);
    const before = planRetry({ firstAttemptAt: first, now: at(71.9 * HOUR), failedAttempts: 40, random: mid });
    expect(before).toEqual({ kind: "retry", at: at(71.9 * HOUR + 2 * HOUR) });
    expect(planRetry({ firstAttemptAt: first, now: at(72 * HOUR), failedAttempts: 41, random: mid })).toEqual({
      kind: "give-up",
    });

    // Walking the real schedule from the start: the last attempt is at or after 72 h.
    let now = first.getTime();
    let failed = 0;
    let lastAttempt = now;
    for (;;) {
      failed++;
      const plan = planRetry({ firstAttemptAt: first, now: new Date(now), failedAttempts: failed, random: lowest });
      if (plan.kind === "give-up") break;
      now = plan.at.getTime();
      lastAttempt = now;
    }
    expect(lastAttempt - first.getTime()).toBeGreaterThanOrEqual(RETRY_WINDOW_MS);
    expect(failed).toBeGreaterThan(40);
  });

  it("lets Retry-After postpone the next attempt, never bring it forward", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const later = planRetry({ firstAttemptAt: now, now, failedAttempts: 1, retryAfterMs: 60_000, random: mid });
    expect(later).toEqual({ kind: "retry", at: new Date(now.getTime() + 60_000) });
    const sooner = planRetry({ firstAttemptAt: now, now, failedAttempts: 3, retryAfterMs: 1_000, random: mid });
    expect(sooner).toEqual({ kind: "retry", at: new Date(now.getTime() + 120_000) });
  });
});

describe("parseRetryAfter", () => {
  const now = new Date("2026-11-22T12:00:00Z");

  it("reads delay-seconds", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
  });

  it("reads an HTTP-date relative to now, and a date in the past as 0", () => {
    expect(parseRetryAfter("Sun, 22 Nov 2026 12:01:30 GMT", now)).toBe(90_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 11:00:00 GMT", now)).toBe(0);
  });

  it("bounds what a partner can ask for", () => {
    expect(parseRetryAfter("999999999", now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter("Fri, 01 Jan 2100 00:00:00 GMT", now)).toBe(MAX_RETRY_AFTER_MS);
  });

  it("ignores what is absent or unreadable", () => {
    for (const value of [null, undefined, "", "soon", "-5", "1.5", "2026-11-22T12:01:00Z", "12 Nov"]) {
      expect(parseRetryAfter(value, now)).toBeNull();
    }
  });
});
