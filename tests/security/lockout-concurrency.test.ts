// The lockout must hold under concurrency. 40 wrong passwords sent at once used to get
// 12 passwords checked against a threshold of 5: each attempt was counted only after its check. Now
// each attempt is reserved first (one UPDATE … RETURNING that refuses while locked), so at most
// SIGNIN_LOCKOUT_THRESHOLD passwords are checked; the rest are refused unchecked (auth.sign_in_refused).
// The same for an email that names no account, whose answers must not differ.
import { afterAll, describe, expect, it } from "vitest";
import { emailDigest } from "@/lib/auth/attempt-sign-in";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { createTestUser, signInOverHttp } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();
/** The server runs with the default threshold (tests/support/server.ts sets none); so does this process. */
const threshold = env().SIGNIN_LOCKOUT_THRESHOLD;
const ATTEMPTS = 50;

function codeOf(location: string): string | null {
  return new URL(location, baseUrl).searchParams.get("code");
}

async function burst(email: string): Promise<string[]> {
  const answers = await Promise.all(
    Array.from({ length: ATTEMPTS }, () => signInOverHttp(baseUrl, email, `wrong-${Math.random()}`)),
  );
  for (const a of answers) {
    expect(a.status).toBeLessThan(500);
    expect(a.sessionCookie).toBeNull();
  }
  return answers.map((a) => codeOf(a.location) ?? "none");
}

const firstAuditId = db()
  .auditEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true } })
  .then((e) => e?.id ?? 0n);

afterAll(async () => {
  // 100 failures from one address in a few seconds: leave the address's counter as the rest of the run found it.
  await db().rateLimitBucket.deleteMany({ where: { key: { startsWith: "signin-addr:" } } });
});

describe(`${ATTEMPTS} concurrent wrong passwords`, () => {
  it(`check at most SIGNIN_LOCKOUT_THRESHOLD passwords of an account, and lock it`, async () => {
    const user = await createTestUser("pharmacist", "Lockout Target");
    const since = await firstAuditId;
    const codes = await burst(user.email);
    const checked = await db().auditEvent.findMany({
      where: { userId: user.id, action: "auth.sign_in_failed", id: { gt: since } },
      select: { details: true },
    });
    const badPassword = checked.filter((e) => (e.details as { reason?: string }).reason === "bad_password");
    const refused = await db().auditEvent.count({
      where: { userId: user.id, action: "auth.sign_in_refused", id: { gt: since } },
    });
    expect(badPassword.length).toBeLessThanOrEqual(threshold);
    expect(badPassword.length + refused).toBe(ATTEMPTS);
    expect(codes.filter((c) => /^locked-\d+$/.test(c)).length).toBeGreaterThanOrEqual(ATTEMPTS - threshold);
    const row = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.failedLogins).toBeLessThanOrEqual(threshold);
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    // While locked, the right password is refused too.
    const right = await signInOverHttp(baseUrl, user.email, user.password);
    expect(right.sessionCookie).toBeNull();
    expect(codeOf(right.location)).toMatch(/^locked-\d+$/);
  });

  it("of an unknown email check at most as many, with the same answers", async () => {
    const email = `nobody-${Date.now()}@test.example`;
    const since = await firstAuditId;
    const codes = await burst(email);
    const digest = emailDigest(email);
    const events = await db().auditEvent.findMany({
      where: { actor: "unknown", id: { gt: since } },
      select: { action: true, details: true },
    });
    const mine = events.filter((e) => (e.details as { emailHmac?: string }).emailHmac === digest);
    const checked = mine.filter((e) => e.action === "auth.sign_in_failed");
    expect(checked.length).toBeLessThanOrEqual(threshold);
    expect(mine.filter((e) => e.action === "auth.sign_in_refused").length + checked.length).toBe(ATTEMPTS);
    expect(codes.filter((c) => /^locked-\d+$/.test(c)).length).toBeGreaterThanOrEqual(ATTEMPTS - threshold);
  });
});
