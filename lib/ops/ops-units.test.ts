import { describe, expect, it } from "vitest";
import { classifyAttempt } from "@/lib/ops/metrics";
import { compareMigrations } from "@/lib/ops/readiness";
import { probeFor } from "@/lib/ops/health-api";
import { isMetricsPath } from "@/lib/ops/metrics-api";

describe("compareMigrations", () => {
  it("passes when the applied set is the code's", () => {
    expect(compareMigrations(["b", "a"], ["a", "b"])).toEqual({ name: "migrations", ok: true });
  });
  it("names a missing and an unknown migration", () => {
    const check = compareMigrations(["a", "z"], ["a", "b"]);
    expect(check.ok).toBe(false);
    expect(check.detail).toContain("1 not applied (first: b)");
    expect(check.detail).toContain("(first: z)");
  });
});

describe("classifyAttempt", () => {
  it.each([
    [204, null, "2xx"],
    [302, "redirect not followed", "3xx"],
    [410, null, "4xx"],
    [503, null, "5xx"],
    [null, "timeout: no answer within 15000 ms", "timeout"],
    [null, "connection refused", "refused"],
    [null, "callback address refused: 10.0.0.1, a private address", "blocked"],
    [null, "interrupted: the worker is shutting down", "interrupted"],
    [null, "DNS: x not found", "error"],
  ] as const)("%s %s is %s", (status, error, result) => {
    expect(classifyAttempt(status, error)).toBe(result);
  });
});

describe("fast-path matching", () => {
  it("matches the probes and /metrics by path and method only", () => {
    expect(probeFor("GET", "/healthz")).toBe("healthz");
    expect(probeFor("HEAD", "/readyz?x=1")).toBe("readyz");
    expect(probeFor("POST", "/healthz")).toBeNull();
    expect(probeFor("GET", "/healthz/x")).toBeNull();
    expect(isMetricsPath("GET", "/metrics")).toBe(true);
    expect(isMetricsPath("DELETE", "/metrics")).toBe(false);
  });
});
