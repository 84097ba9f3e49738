// Transport: HSTS only when the request arrived over HTTPS (a client's own X-Forwarded-Proto is
// not believed without a trusted proxy), and callback URLs only https:// unless CALLBACK_ALLOW_INSECURE_HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { createTestPartner } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { createTestUser, dashboardFetch, signedInCookie } from "@/tests/support/dashboard-session";
import { startTestServer, type TestServer } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();
const HSTS = "max-age=63072000; includeSubDomains";

let strict: TestServer;
let proxied: TestServer;
beforeAll(async () => {
  [strict, proxied] = await Promise.all([
    startTestServer({ databaseUrl, env: { CALLBACK_ALLOW_INSECURE_HTTP: "false" } }),
    startTestServer({ databaseUrl, env: { TRUSTED_PROXIES: "127.0.0.1" } }),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([strict?.stop(), proxied?.stop()]);
});

describe("HSTS", () => {
  it("is sent on pages, the dashboard API, /v1 (the direct route too) and /oauth when a trusted proxy says https", async () => {
    const https = { "x-forwarded-proto": "https" };
    const answers = [
      await fetch(`${proxied.baseUrl}/login`, { headers: https }),
      await fetch(`${proxied.baseUrl}/api/transfers`, { headers: https }),
      await fetch(`${proxied.baseUrl}/v1/openapi.json`, { headers: https }),
      await fetch(`${proxied.baseUrl}/v1/transfer`, {
        method: "POST",
        headers: { ...https, "content-type": "application/json" },
        body: "{}",
      }),
      await fetch(`${proxied.baseUrl}/oauth/token`, { method: "POST", headers: https }),
    ];
    for (const res of answers) expect(res.headers.get("strict-transport-security"), res.url).toBe(HSTS);
    expect((await fetch(`${proxied.baseUrl}/login`)).headers.get("strict-transport-security")).toBeNull();
  });

  it("is not sent when the client itself claims https to a server without trusted proxies", async () => {
    const direct = [
      await fetch(`${baseUrl}/login`, { headers: { "x-forwarded-proto": "https" } }),
      await fetch(`${baseUrl}/v1/transfer`, {
        method: "POST",
        headers: { "x-forwarded-proto": "https", "content-type": "application/json" },
        body: "{}",
      }),
    ];
    for (const res of direct) expect(res.headers.get("strict-transport-security"), res.url).toBeNull();
  });
});

describe("callback URLs", () => {
  it("refuses an http:// URL from the admin API unless CALLBACK_ALLOW_INSECURE_HTTP=true", async () => {
    const admin = await createTestUser("admin");
    const partner = await createTestPartner("Transport");
    const refused = await dashboardFetch<{ detail: string }>(
      strict.baseUrl,
      `/api/admin/partners/${partner.partnerId}/callback-url`,
      {
        method: "PUT",
        cookie: await signedInCookie(strict.baseUrl, admin),
        body: { callbackUrl: "http://partner.example/callbacks" },
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/https/);
    const created = await dashboardFetch(strict.baseUrl, "/api/admin/partners", {
      method: "POST",
      cookie: await signedInCookie(strict.baseUrl, admin),
      body: { name: `Plain ${Date.now()}`, callbackUrl: "http://partner.example/callbacks" },
    });
    expect(created.status).toBe(400);

    const allowed = await dashboardFetch(baseUrl, `/api/admin/partners/${partner.partnerId}/callback-url`, {
      method: "PUT",
      cookie: await signedInCookie(baseUrl, admin),
      body: { callbackUrl: "http://partner.example/callbacks" },
    });
    expect(allowed.status).toBe(200);
    await db().partner.update({
      where: { id: partner.partnerId },
      data: { callbackUrl: "https://sender.example/callbacks" },
    });
  });

  it("the admin's partner screen says what the current mode allows", async () => {
    const admin = await createTestUser("admin");
    const page = await fetch(`${strict.baseUrl}/admin/partners`, {
      headers: { cookie: await signedInCookie(strict.baseUrl, admin) },
    });
    expect(await page.text()).toContain("Must be https://.");
  });
});
