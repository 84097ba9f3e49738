// The service's public address: with PUBLIC_URL set, the absolute URLs it writes name it (next-auth's
// sign-in redirect, the proxy's redirect to sign-in, OAuth discovery's issuer) whatever address the request
// came to; a trusted proxy's X-Forwarded-Host/-Proto win over it, an untrusted peer's never count. And a
// production server with its own store identity shows that store on the admin overview.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { createMigratedDatabase } from "@/tests/support/database";
import { createTestUser, signedInCookie, signInOverHttp } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";
import { freePort, startTestServer, type TestServer } from "@/tests/support/server";

const shared = connectTestEnvironment();
let server: TestServer;
let publicUrl: string;

beforeAll(async () => {
  const databaseUrl = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_public");
  await disconnectDb();
  setEnv({ DATABASE_URL: databaseUrl });
  const port = await freePort();
  publicUrl = `http://rx.pharmacy.test:${port}`;
  server = await startTestServer({
    databaseUrl,
    port,
    env: {
      PUBLIC_URL: publicUrl,
      TRUSTED_PROXIES: "127.0.0.1",
      ALLOW_DEMO_PHARMACY: "false",
      PHARMACY_NPI: "1558598797",
      PHARMACY_NAME: "Main Street Pharmacy",
      RUN_WORKER: "false",
    },
  });
}, 150_000);

afterAll(async () => {
  await server?.stop();
  await disconnectDb();
});

async function issuer(baseUrl: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${baseUrl}/.well-known/oauth-authorization-server`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { issuer: string }).issuer;
}

describe("OAuth discovery's issuer", () => {
  it("is PUBLIC_URL when no trusted proxy names a host", async () => {
    expect(await issuer(server.baseUrl)).toBe(publicUrl);
  });

  it("is a trusted proxy's X-Forwarded-Host and -Proto", async () => {
    const forwarded = { "x-forwarded-host": "rx.pharmacy.test", "x-forwarded-proto": "https" };
    expect(await issuer(server.baseUrl, forwarded)).toBe("https://rx.pharmacy.test");
  });

  it("ignores the forwarding headers of a peer that is not a trusted proxy", async () => {
    const forwarded = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    expect(await issuer(shared.baseUrl, forwarded)).toBe(shared.baseUrl);
  });
});

describe("redirects", () => {
  it("to the sign-in page go to PUBLIC_URL", async () => {
    const res = await fetch(`${server.baseUrl}/transfers`, { redirect: "manual" });
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe(`${publicUrl}/login?callbackUrl=%2Ftransfers`);
  });

  it("after a password sign-in go to PUBLIC_URL, not to the localhost Next sees", async () => {
    const admin = await createTestUser("admin");
    const answer = await signInOverHttp(server.baseUrl, admin.email, admin.password);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${publicUrl}/transfers`);
  });
});

describe("the admin overview", () => {
  it("shows the store this service receives transfers for", async () => {
    const admin = await createTestUser("admin");
    const cookie = await signedInCookie(server.baseUrl, admin);
    const res = await fetch(`${server.baseUrl}/admin`, { headers: { cookie }, redirect: "manual" });
    expect(res.status).toBe(200);
    const text = (await res.text()).replace(/<!-- -->/g, "");
    expect(text).toMatch(/aria-label="Receiving stores"/);
    expect(text).toContain("Main Street Pharmacy (NPI 1558598797) · PHARMACY_NPI");
    expect(text).not.toContain("demo pharmacy");
  });
});
