// Security headers and the CSRF guard, over real HTTP against the production server.
import { describe, expect, it } from "vitest";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();

describe("security headers", () => {
  it("sends a per-request nonce CSP on pages", async () => {
    const a = (await fetch(`${baseUrl}/login`)).headers.get("content-security-policy");
    const b = (await fetch(`${baseUrl}/login`)).headers.get("content-security-policy");
    expect(a).toMatch(/'nonce-[^']+'/);
    expect(a).not.toBe(b);
  });

  it("sends a CSP that allows nothing on JSON endpoints, and the base headers everywhere", async () => {
    for (const path of ["/v1/openapi.json", "/oauth/token"]) {
      const res = await fetch(`${baseUrl}${path}`);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
  });

  it("keeps the referrer on this site (same-origin), so a form posted without JavaScript still names its origin", async () => {
    const direct = await fetch(`${baseUrl}/v1/transfer`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    for (const res of [await fetch(`${baseUrl}/login`), await fetch(`${baseUrl}/v1/openapi.json`), direct]) {
      expect(res.headers.get("referrer-policy"), res.url).toBe("same-origin");
    }
  });

  it("sends HSTS only when served over HTTPS: a client's own X-Forwarded-Proto is not believed (no TRUSTED_PROXIES)", async () => {
    expect((await fetch(`${baseUrl}/login`)).headers.get("strict-transport-security")).toBeNull();
    // tests/security/forwarded-for.test.ts and transport.test.ts cover a trusted proxy that says https.
    const forged = await fetch(`${baseUrl}/login`, { headers: { "x-forwarded-proto": "https" } });
    expect(forged.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("CSRF guard", () => {
  it("refuses a state-changing dashboard request made by another site's page", async () => {
    const attempts: Record<string, string>[] = [{ "sec-fetch-site": "cross-site" }, { origin: "https://evil.example" }];
    for (const headers of attempts) {
      const res = await fetch(`${baseUrl}/api/transfers/trf_x/approve`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: "{}",
      });
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect(((await res.json()) as { type?: string; title?: string }).title).toBe("Cross-site request refused");
    }
  });

  it("lets a same-origin request through to authentication", async () => {
    const res = await fetch(`${baseUrl}/api/transfers/trf_x/approve`, {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: "{}",
    });
    expect(res.status).toBe(401);
  });
});
