// A failed sign-in must not put the typed email in the audit log (people type their password in
// the email field). An email that names no account is recorded as actor "unknown" with an HMAC of it
// (keyed with AUTH_SECRET); a known account by its user id and stored email.
import { describe, expect, it } from "vitest";
import { emailDigest } from "@/lib/auth/attempt-sign-in";
import { db } from "@/lib/db/prisma";
import { createTestUser, signInOverHttp } from "@/tests/support/dashboard-session";
import { connectTestEnvironment } from "@/tests/support/integration";

const { baseUrl } = connectTestEnvironment();

describe("the audit of a failed sign-in", () => {
  it("never holds the text typed as the email", async () => {
    const typed = `Hunter2-Secret-${Date.now()}`;
    const before = await db().auditEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
    const answer = await signInOverHttp(baseUrl, typed, "whatever-password");
    expect(answer.sessionCookie).toBeNull();
    const events = await db().auditEvent.findMany({ where: { id: { gt: before?.id ?? 0n } } });
    const mine = events.filter(
      (e) => (e.details as { emailHmac?: string } | null)?.emailHmac === emailDigest(typed.toLowerCase()),
    );
    expect(mine.map((e) => e.action)).toContain("auth.sign_in_failed");
    for (const e of mine) {
      expect(e.actor).toBe("unknown");
      expect(e.userId).toBeNull();
    }
    for (const e of events) {
      expect(JSON.stringify({ ...e, id: String(e.id) }).toLowerCase()).not.toContain(typed.toLowerCase());
    }
  });

  it("names a known account by its id", async () => {
    const user = await createTestUser("pharmacist", "Audit Sign-in");
    await signInOverHttp(baseUrl, user.email.toUpperCase(), "wrong-password");
    const event = await db().auditEvent.findFirstOrThrow({ where: { userId: user.id, action: "auth.sign_in_failed" } });
    expect(event.actor).toBe(user.email);
    expect(event.details).toMatchObject({ reason: "bad_password" });
  });
});
