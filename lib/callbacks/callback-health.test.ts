import { describe, expect, it } from "vitest";
import { callbackHealth, partnerCallbackHealth } from "@/lib/callbacks/callback-health";

const HOUR = 3_600_000;
const received = new Date("2026-11-22T08:00:00Z");
const at = (hours: number) => new Date(received.getTime() + hours * HOUR);
const failedOnce = {
  attemptCount: 2,
  lastStatusCode: 503,
  lastError: "HTTP 503",
  nextAttemptAt: at(1),
  deliveredAt: null,
};

describe("callbackHealth", () => {
  it("is quiet while the transfer is fresh and undecided, and warns in the last hour of the sender's window", () => {
    const fresh = callbackHealth({ receivedAt: received, callbackStatus: null }, at(1));
    expect(fresh).toMatchObject({ state: "none", isFailing: false, isWindowWarning: false, isWindowClosed: false });
    expect(fresh.windowClosesAt).toEqual(at(4));
    expect(callbackHealth({ receivedAt: received, callbackStatus: null }, at(3.1))).toMatchObject({
      isWindowWarning: true,
      isWindowClosed: false,
    });
    expect(callbackHealth({ receivedAt: received, callbackStatus: null }, at(4.5))).toMatchObject({
      isWindowWarning: true,
      isWindowClosed: true,
    });
  });

  it("marks a callback that keeps failing, and warns before the window closes", () => {
    const health = callbackHealth({ receivedAt: received, callbackStatus: "PENDING", callback: failedOnce }, at(3.5));
    expect(health).toMatchObject({ state: "retrying", isFailing: true, isWindowWarning: true });
    expect(health.summary).toMatch(/failing \(2 attempts, last: HTTP 503\).*closes in 30 min/);
  });

  it("calls a callback the sender refused (RX_CALLBACK_ERROR) refused and failing, never delivered", () => {
    const callback = {
      attemptCount: 1,
      lastStatusCode: 200,
      lastError: "HTTP 200: RX_CALLBACK_ERROR MISSING_INFO: could not map callback - requestID is missing",
      nextAttemptAt: null,
      deliveredAt: null,
    };
    const health = callbackHealth({ receivedAt: received, callbackStatus: "REFUSED", callback }, at(1));
    expect(health).toMatchObject({ state: "refused", isFailing: true });
    expect(health.summary).toMatch(/^Callback refused by the sender \(HTTP 200: RX_CALLBACK_ERROR MISSING_INFO/);
  });

  it("does not call a queued first attempt failing", () => {
    const callback = {
      attemptCount: 0,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: at(0.5),
      deliveredAt: null,
    };
    expect(callbackHealth({ receivedAt: received, callbackStatus: "PENDING", callback }, at(0.5))).toMatchObject({
      state: "sending",
      isFailing: false,
    });
    expect(callbackHealth({ receivedAt: received, callbackStatus: "PENDING" }, at(0.5))).toMatchObject({
      state: "sending",
      isFailing: false,
    });
  });

  it("never warns once delivered, and marks FAILED and GONE", () => {
    expect(callbackHealth({ receivedAt: received, callbackStatus: "DELIVERED" }, at(5))).toMatchObject({
      state: "delivered",
      isFailing: false,
      isWindowWarning: false,
      isWindowClosed: false,
    });
    expect(
      callbackHealth({ receivedAt: received, callbackStatus: "FAILED", callback: failedOnce }, at(80)),
    ).toMatchObject({ state: "failed", isFailing: true });
    expect(callbackHealth({ receivedAt: received, callbackStatus: "GONE" }, at(1))).toMatchObject({
      state: "gone",
      isFailing: true,
    });
  });
});

describe("partnerCallbackHealth", () => {
  it("flags a gone endpoint at once and a failing one after it has kept failing", () => {
    const now = at(1);
    expect(partnerCallbackHealth({ callbackFailingSince: null, callbackGoneAt: null }, now)).toEqual({
      state: "ok",
      isFlagged: false,
      since: null,
    });
    expect(partnerCallbackHealth({ callbackFailingSince: null, callbackGoneAt: at(0.9) }, now)).toMatchObject({
      state: "gone",
      isFlagged: true,
    });
    expect(
      partnerCallbackHealth({ callbackFailingSince: new Date(now.getTime() - 60_000), callbackGoneAt: null }, now),
    ).toMatchObject({ state: "failing", isFlagged: false });
    expect(
      partnerCallbackHealth({ callbackFailingSince: new Date(now.getTime() - 10 * 60_000), callbackGoneAt: null }, now),
    ).toMatchObject({ state: "failing", isFlagged: true });
  });
});
