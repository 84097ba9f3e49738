import { describe, expect, it } from "vitest";
import { answerKindOf, answerRateOf, SENDER_TIMEOUT_MS } from "@/lib/partners/failure-rate";

describe("answerKindOf: a /v1 answer as the sender counts it", () => {
  it("counts 5xx, 408, 429 and answers slower than the sender's timeout as failures", () => {
    for (const status of [500, 502, 503, 504, 408, 429])
      expect(answerKindOf(status, 10), String(status)).toBe("failure");
    expect(answerKindOf(200, SENDER_TIMEOUT_MS + 1)).toBe("failure");
  });

  it("keeps the other 4xx ERROR answers apart, and 2xx as answers", () => {
    for (const status of [400, 401, 403, 404, 413, 415]) expect(answerKindOf(status, 10)).toBe("client_error");
    expect(answerKindOf(200, 10)).toBe("ok");
  });
});

describe("answerRateOf", () => {
  it("warns above 20 %, is critical above 40 %, and has no rate without answers", () => {
    expect(answerRateOf({ answers: 10, failures: 2, clientErrors: 5 })).toMatchObject({
      failureRate: 0.2,
      clientErrorRate: 0.5,
      level: "ok",
    });
    expect(answerRateOf({ answers: 10, failures: 3, clientErrors: 0 }).level).toBe("warning");
    expect(answerRateOf({ answers: 10, failures: 5, clientErrors: 0 }).level).toBe("critical");
    expect(answerRateOf({ answers: 0, failures: 0, clientErrors: 0 })).toMatchObject({
      failureRate: null,
      level: "ok",
    });
  });
});
