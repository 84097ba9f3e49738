import { describe, expect, it } from "vitest";
import {
  API_RESPONSE_HEADERS,
  BASE_SECURITY_HEADERS,
  isCrossSiteWrite,
  isHttps,
  pageContentSecurityPolicy,
} from "@/lib/http/security-headers";

const req = (
  method: string,
  headers: Record<string, string>,
  url = "http://pharmacy.test/api/transfers/x/approve",
) => ({
  method,
  headers: new Headers(headers),
  url,
});

describe("CSRF guard", () => {
  it.each([
    ["a same-origin browser POST", req("POST", { "sec-fetch-site": "same-origin", host: "pharmacy.test" }), false],
    ["a cross-site browser POST", req("POST", { "sec-fetch-site": "cross-site", host: "pharmacy.test" }), true],
    ["a same-site (other subdomain) POST", req("POST", { "sec-fetch-site": "same-site", host: "pharmacy.test" }), true],
    ["an Origin of another host", req("DELETE", { origin: "https://evil.test", host: "pharmacy.test" }), true],
    ["an Origin of this host", req("PATCH", { origin: "http://pharmacy.test", host: "pharmacy.test" }), false],
    ["a malformed Origin", req("POST", { origin: "null", host: "pharmacy.test" }), true],
    ["a non-browser client (no Origin, no Sec-Fetch-Site)", req("POST", { host: "pharmacy.test" }), false],
    ["a cross-site GET (safe method)", req("GET", { "sec-fetch-site": "cross-site" }), false],
  ])("%s", (_name, request, refused) => {
    expect(isCrossSiteWrite(request)).toBe(refused);
  });
});

describe("page CSP", () => {
  it("allows scripts only with the nonce and forbids framing", () => {
    const csp = pageContentSecurityPolicy("abc123", false);
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});

describe("HTTPS detection", () => {
  it("trusts X-Forwarded-Proto, else the URL", () => {
    expect(isHttps(req("GET", { "x-forwarded-proto": "https" }))).toBe(true);
    expect(isHttps(req("GET", {}, "https://pharmacy.test/"))).toBe(true);
    expect(isHttps(req("GET", {}))).toBe(false);
  });
});

describe("referrer policy", () => {
  // no-referrer made browsers send `Origin: null` with a native form POST, which Next refuses as a Server Action.
  it("keeps the referrer on this site, for pages and for the answers written without Next alike", () => {
    const pages = BASE_SECURITY_HEADERS.find((h) => h.key === "Referrer-Policy")?.value;
    expect(pages).toBe("same-origin");
    expect(API_RESPONSE_HEADERS["Referrer-Policy"]).toBe(pages);
  });
});
