// Single sign-on: with SSO_ONLY=true the password sign-in is refused on the server, not only
// hidden, for everyone but the break-glass admins (listed in SSO_BREAK_GLASS_EMAILS and holding the admin
// role). Signed in over next-auth's own credentials endpoint, which the login form's server action goes
// through too (auth.ts's authorize). A refusal is audited, and counts towards no lockout.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { createUser } from "@/lib/users/create-user";
import { signInOverHttp } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";
import { freePort, startTestServer, type TestServer } from "@/tests/support/server";

const { databaseUrl } = connectTestEnvironment();

type Made = { id: string; email: string; password: string };

async function make(role: "admin" | "pharmacist", label: string): Promise<Made> {
  const email = `${label}-${randomUUID().slice(0, 8)}@sso.example`;
  const password = `pw-${randomUUID()}`;
  const { userId } = await createUser({ email, password, role, name: label });
  return { id: userId, email, password };
}

describe("SSO_ONLY=true", () => {
  let server: TestServer;
  let glassAdmin: Made;
  let otherAdmin: Made;
  let glassPharmacist: Made;

  beforeAll(async () => {
    glassAdmin = await make("admin", "glass-admin");
    otherAdmin = await make("admin", "other-admin");
    glassPharmacist = await make("pharmacist", "glass-pharmacist");
    // Nothing listens on the issuer's port: password sign-in must not depend on the provider.
    const issuer = `http://127.0.0.1:${await freePort()}`;
    const port = await freePort();
    server = await startTestServer({
      databaseUrl,
      port,
      env: {
        // npm start with single sign-on needs its public address.
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: "rx",
        OIDC_CLIENT_SECRET: "not-used-here",
        SSO_ONLY: "true",
        // Listed in another case than stored: the list is compared case-insensitively.
        SSO_BREAK_GLASS_EMAILS: `${glassAdmin.email.toUpperCase()}, ${glassPharmacist.email}`,
        RUN_WORKER: "false",
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("lets a listed admin sign in with a password", async () => {
    const answer = await signInOverHttp(server.baseUrl, glassAdmin.email, glassAdmin.password);
    expect(answer.sessionCookie).not.toBeNull();
    const event = await db().auditEvent.findFirstOrThrow({
      where: { userId: glassAdmin.id, action: "auth.signed_in" },
      orderBy: { id: "desc" },
    });
    expect(event.details).toMatchObject({ method: "password" });
  });

  it("refuses an admin who is not listed, with the right password, and audits it without counting a failure", async () => {
    const answer = await signInOverHttp(server.baseUrl, otherAdmin.email, otherAdmin.password);
    expect(answer.sessionCookie).toBeNull();
    expect(answer.location).toContain("code=sso-only");
    const refused = await db().auditEvent.findFirstOrThrow({
      where: { userId: otherAdmin.id, action: "auth.sign_in_refused" },
    });
    expect(refused.details).toMatchObject({ method: "password", reason: "sso_only" });
    expect(await db().userSession.count({ where: { userId: otherAdmin.id } })).toBe(0);
    expect((await db().user.findUniqueOrThrow({ where: { id: otherAdmin.id } })).failedLogins).toBe(0);
  });

  it("refuses a listed user who is not an admin", async () => {
    const answer = await signInOverHttp(server.baseUrl, glassPharmacist.email, glassPharmacist.password);
    expect(answer.sessionCookie).toBeNull();
    expect(answer.location).toContain("code=sso-only");
    expect(await db().userSession.count({ where: { userId: glassPharmacist.id } })).toBe(0);
  });

  it("refuses an unknown email with the same answer, recording only its HMAC", async () => {
    const typed = `nobody-${randomUUID()}@sso.example`;
    const answer = await signInOverHttp(server.baseUrl, typed, "whatever-password");
    expect(answer.sessionCookie).toBeNull();
    expect(answer.location).toContain("code=sso-only");
    const events = await db().auditEvent.findMany({
      where: { action: "auth.sign_in_refused", actor: "unknown" },
      orderBy: { id: "desc" },
      take: 5,
    });
    expect(events.some((e) => (e.details as { reason?: string }).reason === "sso_only")).toBe(true);
    for (const e of events) expect(JSON.stringify(e.details)).not.toContain(typed);
  });

  it("shows the password form only on the break-glass page", async () => {
    const plain = await (await fetch(`${server.baseUrl}/login`)).text();
    expect(plain).not.toContain('name="password"');
    expect(plain).toContain("Break-glass admin sign-in");
    const glass = await (await fetch(`${server.baseUrl}/login?break_glass=1`)).text();
    expect(glass).toContain('name="password"');
  });
});
