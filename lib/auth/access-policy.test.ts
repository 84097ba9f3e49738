import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ACCESS_POLICY,
  DEFAULT_RULE,
  PROXY_SKIPPED_PREFIXES,
  accessRuleFor,
  isAllowed,
  isPublic,
  matchesPattern,
} from "@/lib/auth/access-policy";

describe("the access policy", () => {
  it("matches exact paths, one-segment and any-depth wildcards", () => {
    expect(matchesPattern("/login", "/login")).toBe(true);
    expect(matchesPattern("/login", "/login/")).toBe(true);
    expect(matchesPattern("/login", "/loginx")).toBe(false);
    expect(matchesPattern("/api/transfers/*/claim", "/api/transfers/trf_1/claim")).toBe(true);
    expect(matchesPattern("/api/transfers/*/claim", "/api/transfers/trf_1/claim/x")).toBe(false);
    expect(matchesPattern("/transfers/**", "/transfers")).toBe(true);
    expect(matchesPattern("/transfers/**", "/transfers/trf_1/record")).toBe(true);
    expect(matchesPattern("/transfers/**", "/transfersx")).toBe(false);
    expect(matchesPattern("/", "/")).toBe(true);
    expect(matchesPattern("/", "/x")).toBe(false);
  });

  it("declares the dashboard, the admin area and the public routes", () => {
    expect(accessRuleFor("/admin").allow).toEqual(["admin"]);
    expect(accessRuleFor("/admin/users/123").allow).toEqual(["admin"]);
    expect(accessRuleFor("/api/admin/keys", "POST").allow).toEqual(["admin"]);
    expect(accessRuleFor("/transfers").allow).toEqual(["pharmacist", "admin"]);
    expect(accessRuleFor("/transfers/trf_1/record").allow).toEqual(["pharmacist", "admin"]);
    expect(accessRuleFor("/api/transfers/trf_1/approve", "POST").allow).toEqual(["pharmacist"]);
    expect(accessRuleFor("/api/transfers/trf_1/reject", "POST").allow).toEqual(["pharmacist"]);
    expect(accessRuleFor("/api/transfers/trf_1/claim", "DELETE").allow).toEqual(["pharmacist"]);
    expect(accessRuleFor("/api/transfers/trf_1/callbacks/redeliver", "POST").allow).toEqual(["pharmacist", "admin"]);
    expect(accessRuleFor("/api/transfers/export").allow).toEqual(["pharmacist", "admin"]);
    expect(accessRuleFor("/api/transfers/export").pattern).toBe("/api/transfers/export");
    expect(accessRuleFor("/transfers/log").allow).toEqual(["pharmacist", "admin"]);
    for (const path of [
      "/v1/transfer",
      "/v1/transfer/trf_1",
      "/oauth/token",
      "/docs",
      "/v1/openapi.json",
      "/api/auth/csrf",
      "/login",
      "/",
    ]) {
      expect(isPublic(accessRuleFor(path)), path).toBe(true);
    }
  });

  it("denies the anonymous anything nobody listed", () => {
    expect(accessRuleFor("/something-new")).toBe(DEFAULT_RULE);
    expect(isAllowed(DEFAULT_RULE, null)).toBe(false);
    expect(isAllowed(DEFAULT_RULE, "pharmacist")).toBe(true);
  });

  it("every row says why", () => {
    for (const rule of ACCESS_POLICY) {
      expect(rule.pattern.startsWith("/"), rule.pattern).toBe(true);
      expect(rule.why.length, rule.pattern).toBeGreaterThan(0);
    }
  });

  it("proxy.ts skips only paths the table makes public, and its matcher names the same prefixes", () => {
    for (const prefix of PROXY_SKIPPED_PREFIXES) {
      if (prefix.startsWith("/_next") || prefix === "/favicon.ico") continue;
      const sample = prefix.endsWith("/") ? `${prefix}transfer` : prefix;
      expect(isPublic(accessRuleFor(sample)), prefix).toBe(true);
    }
    const proxy = readFileSync(new URL("../../proxy.ts", import.meta.url), "utf8");
    const matcher = /matcher: \["(.*)"\]/.exec(proxy)?.[1] ?? "";
    for (const prefix of PROXY_SKIPPED_PREFIXES) expect(matcher, prefix).toContain(prefix.slice(1));
  });
});
