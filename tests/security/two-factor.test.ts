// Two-factor sign-in (TOTP + recovery codes) against the real server and database. A session
// whose password was right but whose code is still due opens nothing (pages go to the code step, API
// routes answer 403); a code is accepted once (replay refused, also when two requests race); wrong codes
// count toward the same lockout as passwords; recovery codes work once; MFA_REQUIRED=admins sends an
// admin without two-factor to enrolment before anything else; an admin's reset (and the CLI's) ends the
// user's sessions and is audited. The code step's own operation is called directly (it is a server
// action in the browser; e2e/two-factor.spec.ts drives it there).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmTwoFactorEnrolment, startTwoFactorEnrolment } from "@/lib/auth/two-factor/enrol-two-factor";
import { checkTotpSecrets } from "@/lib/auth/two-factor/sealed-totp-secrets";
import { timeStepAt, totpCodeAt } from "@/lib/auth/two-factor/totp";
import { verifySecondFactor } from "@/lib/auth/two-factor/verify-second-factor";
import { db } from "@/lib/db/prisma";
import { runCli } from "@/tests/support/cli";
import {
  createTestUser,
  dashboardFetch,
  signedInCookie,
  signInOverHttp,
  type TestUser,
} from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";
import { startTestServer, TEST_SECRETS, type TestServer } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();

async function latestSessionId(userId: string): Promise<string> {
  const row = await db().userSession.findFirstOrThrow({ where: { userId }, orderBy: { createdAt: "desc" } });
  return row.id;
}

async function signInPassword(
  base: string,
  user: TestUser,
  callbackUrl = "/transfers",
): Promise<{ cookie: string; sessionId: string }> {
  const answer = await signInOverHttp(base, user.email, user.password, {}, callbackUrl);
  if (!answer.sessionCookie) throw new Error(`sign-in failed: ${answer.status} ${answer.location}`);
  return { cookie: answer.sessionCookie, sessionId: await latestSessionId(user.id) };
}

const apiStatus = async (base: string, cookie: string) =>
  await dashboardFetch<{ type?: string }>(base, "/api/transfers?limit=1", {
    cookie,
    headers: { "x-rx-background": "1" },
  });

async function pageLocation(
  base: string,
  cookie: string,
  path = "/transfers",
): Promise<{ status: number; location: URL | null }> {
  const res = await fetch(`${base}${path}`, { headers: { cookie, accept: "text/html" }, redirect: "manual" });
  await res.arrayBuffer();
  const location = res.headers.get("location");
  return { status: res.status, location: location ? new URL(location, base) : null };
}

/** Enrols `user` the way the Security page does; returns the secret and the recovery codes. */
async function enrol(user: TestUser, sessionId: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = await startTwoFactorEnrolment(user.id);
  // A code from a step before "now", so that the sign-in tests below can use the current one.
  const outcome = await confirmTwoFactorEnrolment({
    userId: user.id,
    sessionId,
    code: totpCodeAt(secret, Date.now() - 30_000),
    clientAddress: null,
  });
  if (!outcome.ok) throw new Error(`enrolment refused: ${JSON.stringify(outcome.refusal)}`);
  return { secret, recoveryCodes: outcome.recoveryCodes };
}

/** Clears the step memory so a test can use "now"'s code afresh (each test stands alone). */
const forgetLastStep = (userId: string) =>
  db().user.update({
    where: { id: userId },
    data: { twoFactorLastStep: timeStepAt(Date.now()) - 2, failedLogins: 0, lockedUntil: null },
  });

describe("enrolment", () => {
  it("switches two-factor on only after one code is confirmed; stores the secret sealed and the recovery codes hashed; audits it", async () => {
    const user = await createTestUser("pharmacist", "Enrolling Pharmacist");
    const cookie = await signedInCookie(baseUrl, user);
    const sessionId = await latestSessionId(user.id);
    const { secret } = await startTwoFactorEnrolment(user.id);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabledAt).toBeNull();

    const wrong = await confirmTwoFactorEnrolment({ userId: user.id, sessionId, code: "000000", clientAddress: null });
    expect(wrong.ok).toBe(false);
    const expired = await confirmTwoFactorEnrolment({
      userId: user.id,
      sessionId,
      code: totpCodeAt(secret, Date.now() - 60_000),
      clientAddress: null,
    });
    expect(expired).toMatchObject({ ok: false, refusal: { reason: "expired" } });

    const done = await confirmTwoFactorEnrolment({
      userId: user.id,
      sessionId,
      code: totpCodeAt(secret, Date.now()),
      clientAddress: null,
    });
    expect(done.ok).toBe(true);
    const codes = done.ok ? done.recoveryCodes : [];
    expect(codes).toHaveLength(10);
    const row = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.twoFactorEnabledAt).not.toBeNull();
    expect(row.twoFactorPendingSecret).toBeNull();
    expect(row.twoFactorSecret).not.toContain(secret);
    expect(row.twoFactorRecoveryHashes).toHaveLength(10);
    for (const code of codes) expect(row.twoFactorRecoveryHashes.join(" ")).not.toContain(code.replace(/-/g, ""));
    expect(await db().auditEvent.count({ where: { userId: user.id, action: "auth.two_factor_enrolled" } })).toBe(1);
    // The session that enrolled stays a full session.
    expect((await apiStatus(baseUrl, cookie)).status).toBe(200);
    // `secrets rotate-key` and the start-up key check see the sealed TOTP secret too.
    const sealed = await checkTotpSecrets();
    expect(sealed.secrets).toBeGreaterThan(0);
    expect(sealed.underCurrentKey).toBe(sealed.secrets);
    // A second enrolment is refused while one is on.
    await expect(startTwoFactorEnrolment(user.id)).rejects.toThrow(/already on/);
  });
});

describe("sign-in with a second factor", () => {
  let user: TestUser;
  let secret: string;
  let recoveryCodes: string[];

  beforeAll(async () => {
    user = await createTestUser("pharmacist", "Two-factor Pharmacist");
    await signedInCookie(baseUrl, user);
    ({ secret, recoveryCodes } = await enrol(user, await latestSessionId(user.id)));
  });

  it("opens nothing after the password alone: pages go to the code step, API routes answer 403", async () => {
    const { cookie } = await signInPassword(baseUrl, user);
    const api = await apiStatus(baseUrl, cookie);
    expect(api.status).toBe(403);
    expect(api.body.type).toBe("urn:rx-transfer:problem:second_factor_required");
    const page = await pageLocation(baseUrl, cookie, "/transfers/log");
    expect(page.status).toBe(307);
    expect(page.location?.pathname).toBe("/login/two-factor");
    expect(page.location?.searchParams.get("callbackUrl")).toBe("/transfers/log");
    expect((await pageLocation(baseUrl, cookie, "/login/two-factor")).status).toBe(200);
    expect(
      await db().auditEvent.count({ where: { userId: user.id, action: "auth.password_verified" } }),
    ).toBeGreaterThan(0);
  });

  it("accepts the current code once; the same code is refused as replayed on the next sign-in", async () => {
    await forgetLastStep(user.id);
    const code = totpCodeAt(secret, Date.now());
    const first = await signInPassword(baseUrl, user);
    expect(
      await verifySecondFactor({ userId: user.id, sessionId: first.sessionId, code, clientAddress: null }),
    ).toEqual({ ok: true, method: "totp" });
    expect((await apiStatus(baseUrl, first.cookie)).status).toBe(200);

    const second = await signInPassword(baseUrl, user);
    expect(
      await verifySecondFactor({ userId: user.id, sessionId: second.sessionId, code, clientAddress: null }),
    ).toMatchObject({ ok: false, reason: "replayed" });
    expect((await apiStatus(baseUrl, second.cookie)).status).toBe(403);
    expect(
      await db().auditEvent.count({ where: { userId: user.id, action: "auth.second_factor_failed" } }),
    ).toBeGreaterThan(0);
  });

  it("lets exactly one of two concurrent requests with the same code through", async () => {
    await forgetLastStep(user.id);
    const code = totpCodeAt(secret, Date.now());
    const a = await signInPassword(baseUrl, user);
    const b = await signInPassword(baseUrl, user);
    const results = await Promise.all(
      [a, b].map((s) => verifySecondFactor({ userId: user.id, sessionId: s.sessionId, code, clientAddress: null })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "replayed")).toHaveLength(1);
  });

  it("explains a clock off by more than one step, and refuses wrong input without an error", async () => {
    await forgetLastStep(user.id);
    const s = await signInPassword(baseUrl, user);
    expect(
      await verifySecondFactor({
        userId: user.id,
        sessionId: s.sessionId,
        code: totpCodeAt(secret, Date.now() + 120_000),
        clientAddress: null,
      }),
    ).toMatchObject({ ok: false, reason: "clock_skew" });
    for (const code of ["", "abc", "\u0000\u0000", "9".repeat(5000), 42]) {
      const outcome = await verifySecondFactor({ userId: user.id, sessionId: s.sessionId, code, clientAddress: null });
      expect(outcome.ok).toBe(false);
    }
    await db().user.update({ where: { id: user.id }, data: { failedLogins: 0, lockedUntil: null } });
  });

  it("takes a recovery code once, in any case and without dashes; audits its use", async () => {
    await forgetLastStep(user.id);
    const code = recoveryCodes[0]!;
    const s = await signInPassword(baseUrl, user);
    expect(
      await verifySecondFactor({
        userId: user.id,
        sessionId: s.sessionId,
        code: code.toLowerCase().replace(/-/g, ""),
        clientAddress: null,
      }),
    ).toEqual({ ok: true, method: "recovery_code", recoveryCodesLeft: 9 });
    expect((await apiStatus(baseUrl, s.cookie)).status).toBe(200);
    const again = await signInPassword(baseUrl, user);
    expect(
      await verifySecondFactor({ userId: user.id, sessionId: again.sessionId, code, clientAddress: null }),
    ).toMatchObject({ ok: false, reason: "recovery_used" });
    expect(await db().auditEvent.count({ where: { userId: user.id, action: "auth.recovery_code_used" } })).toBe(1);
    await db().user.update({ where: { id: user.id }, data: { failedLogins: 0, lockedUntil: null } });
  });

  it("counts wrong codes toward the password lockout; signing in again with the password buys no more guesses", async () => {
    await forgetLastStep(user.id);
    let s = await signInPassword(baseUrl, user);
    for (let i = 0; i < 3; i++)
      expect(
        (await verifySecondFactor({ userId: user.id, sessionId: s.sessionId, code: "000000", clientAddress: null })).ok,
      ).toBe(false);
    s = await signInPassword(baseUrl, user); // the password is right: the count is not reset
    expect(
      (await verifySecondFactor({ userId: user.id, sessionId: s.sessionId, code: "000001", clientAddress: null })).ok,
    ).toBe(false);
    const fifth = await verifySecondFactor({
      userId: user.id,
      sessionId: s.sessionId,
      code: "000002",
      clientAddress: null,
    });
    expect(fifth).toMatchObject({ ok: false, reason: "locked" });
    // Even the right code is refused now, and so is the password.
    expect(
      await verifySecondFactor({
        userId: user.id,
        sessionId: s.sessionId,
        code: totpCodeAt(secret, Date.now()),
        clientAddress: null,
      }),
    ).toMatchObject({ ok: false, reason: "locked" });
    const password = await signInOverHttp(baseUrl, user.email, user.password);
    expect(password.sessionCookie).toBeNull();
    expect(password.location).toMatch(/code=locked-\d+/);
    await db().user.update({ where: { id: user.id }, data: { failedLogins: 0, lockedUntil: null } });
  });
});

describe("reset", () => {
  it("an admin's reset drops the secret and codes and ends every session of the user, audited", async () => {
    const admin = await createTestUser("admin", "Resetting Admin");
    const adminCookie = await signedInCookie(baseUrl, admin);
    const user = await createTestUser("pharmacist", "Phone-less Pharmacist");
    const userCookie = await signedInCookie(baseUrl, user);
    await enrol(user, await latestSessionId(user.id));
    const res = await dashboardFetch<{ sessionsEnded: number; wasEnabled: boolean }>(
      baseUrl,
      `/api/admin/users/${user.id}/two-factor`,
      {
        cookie: adminCookie,
        method: "DELETE",
        headers: { origin: baseUrl },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ wasEnabled: true, sessionsEnded: 1 });
    expect((await apiStatus(baseUrl, userCookie)).status).toBe(401);
    const row = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect([row.twoFactorEnabledAt, row.twoFactorSecret, row.twoFactorRecoveryHashes.length]).toEqual([null, null, 0]);
    expect(await db().auditEvent.count({ where: { userId: admin.id, action: "user.two_factor_reset" } })).toBe(1);
    // A pharmacist may not.
    const pharmacistCookie = await signedInCookie(baseUrl, await createTestUser("pharmacist"));
    expect(
      (
        await dashboardFetch(baseUrl, `/api/admin/users/${user.id}/two-factor`, {
          cookie: pharmacistCookie,
          method: "DELETE",
          headers: { origin: baseUrl },
        })
      ).status,
    ).toBe(403);
  });

  it("`npm run cli -- user mfa-reset <email>` does the same, audited as cli", async () => {
    const user = await createTestUser("admin", "Last Admin Without Phone");
    await signedInCookie(baseUrl, user);
    await enrol(user, await latestSessionId(user.id));
    const cli = await runCli(["user", "mfa-reset", user.email], { DATABASE_URL: databaseUrl, ...TEST_SECRETS });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.json).toMatchObject({ userId: user.id, wasEnabled: true, sessionsEnded: 1 });
    expect(await db().auditEvent.count({ where: { actor: "cli", action: "user.two_factor_reset" } })).toBeGreaterThan(
      0,
    );
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).twoFactorEnabledAt).toBeNull();
  });
});

describe("MFA_REQUIRED=admins", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl, env: { MFA_REQUIRED: "admins" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("sends an admin without two-factor to enrolment, and nothing else opens until it is done", async () => {
    const admin = await createTestUser("admin", "Must Enrol Admin");
    const { cookie, sessionId } = await signInPassword(server.baseUrl, admin);
    const page = await pageLocation(server.baseUrl, cookie, "/admin/users");
    expect(page.status).toBe(307);
    expect(page.location?.pathname).toBe("/security");
    expect(page.location?.searchParams.get("callbackUrl")).toBe("/admin/users");
    expect((await apiStatus(server.baseUrl, cookie)).body.type).toBe("urn:rx-transfer:problem:second_factor_required");
    expect((await dashboardFetch(server.baseUrl, "/api/admin/users", { cookie })).status).toBe(403);
    expect((await pageLocation(server.baseUrl, cookie, "/security")).status).toBe(200);

    const { secret } = await startTwoFactorEnrolment(admin.id);
    expect(
      (
        await confirmTwoFactorEnrolment({
          userId: admin.id,
          sessionId,
          code: totpCodeAt(secret, Date.now()),
          clientAddress: null,
        })
      ).ok,
    ).toBe(true);
    expect((await apiStatus(server.baseUrl, cookie)).status).toBe(200);
    expect((await pageLocation(server.baseUrl, cookie, "/admin/users")).status).toBe(200);
  });

  it("leaves a pharmacist without two-factor alone", async () => {
    const pharmacist = await createTestUser("pharmacist");
    const { cookie } = await signInPassword(server.baseUrl, pharmacist);
    expect((await apiStatus(server.baseUrl, cookie)).status).toBe(200);
  });
});
