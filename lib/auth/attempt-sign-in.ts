// Email + password sign-in with lockout. Every counter lives in PostgreSQL, so all instances share it:
//   - per account (users.failed_logins / locked_until): after SIGNIN_LOCKOUT_THRESHOLD consecutive
//     failures the account is locked for SIGNIN_LOCKOUT_BASE_SECONDS, doubling with each further failure
//     up to SIGNIN_LOCKOUT_MAX_SECONDS; a success resets it.
//   - per unknown email (rate_limit_buckets `signin-email:<sha256>`): exactly the same rule and the same
//     answers, so the answers never tell whether an account exists. The password is hashed against a
//     dummy hash so the time taken does not tell either.
//   - per client address (rate_limit_buckets `signin-addr:<address>`): at most SIGNIN_ADDRESS_MAX_FAILURES
//     failures per 15 minutes, whatever the emails (password spraying).
// While locked, attempts are refused without checking the password and without extending the lock.
import { createHash } from "node:crypto";
import type { Role } from "@/lib/auth/access-policy";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { textProblem } from "@/lib/text-safety";

export type SignedInUser = { id: string; email: string; name: string; role: Role; sessionVersion: number };

export type SignInOutcome =
  | { ok: true; user: SignedInUser }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; retryAt: Date };

export const ADDRESS_WINDOW_MS = 15 * 60_000;
/** An unknown email's failures are forgotten after a day without another failure. */
const UNKNOWN_EMAIL_MEMORY_MS = 24 * 3_600_000;
const MAX_EMAIL_LENGTH = 254;
const MAX_PASSWORD_LENGTH = 1024;

/** Seconds of lockout earned by `failures` consecutive failures (0 below the threshold). */
export function lockoutSeconds(failures: number): number {
  const { SIGNIN_LOCKOUT_THRESHOLD: threshold, SIGNIN_LOCKOUT_BASE_SECONDS: base, SIGNIN_LOCKOUT_MAX_SECONDS: max } = env();
  if (failures < threshold) return 0;
  const doublings = Math.min(failures - threshold, 30);
  return Math.min(base * 2 ** doublings, max);
}

let dummyHash: Promise<string> | undefined;

export async function attemptSignIn(input: { email: unknown; password: unknown; clientAddress: string | null }): Promise<SignInOutcome> {
  const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : "";
  const password = typeof input.password === "string" ? input.password : "";
  // An email PostgreSQL cannot hold (lib/text-safety.ts) names no account: the same answer as a wrong one.
  if (!email || !password || email.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD_LENGTH || textProblem(email)) {
    return { ok: false, reason: "invalid" };
  }
  const now = new Date();
  const address = input.clientAddress;
  const audit = (action: string, userId: string | null, details: Record<string, string | number | null>) =>
    recordAuditEvent({ userId, actor: email, action, clientAddress: address, details });

  const addressLock = address ? await addressLockedUntil(address, now) : null;
  if (addressLock) {
    await audit("auth.sign_in_refused", null, { reason: "address_locked", until: addressLock.toISOString() });
    return { ok: false, reason: "locked", retryAt: addressLock };
  }

  const user = await db().user.findUnique({ where: { email } });
  if (!user) {
    const emailKey = `signin-email:${createHash("sha256").update(email).digest("hex")}`;
    const locked = await unknownEmailLockedUntil(emailKey, now);
    if (locked) {
      await audit("auth.sign_in_refused", null, { reason: "locked" });
      return { ok: false, reason: "locked", retryAt: locked };
    }
    dummyHash ??= hashPassword("not-a-password-of-anyone");
    await verifyPassword(password, await dummyHash);
    const { failures, lastFailure } = await countUnknownEmailFailure(emailKey);
    if (address) await countAddressFailure(address);
    const lock = lockoutSeconds(failures);
    await audit("auth.sign_in_failed", null, { reason: "unknown_email", failures });
    // From the stored failure time, as unknownEmailLockedUntil computes it: every answer names the same instant.
    return lock > 0 ? { ok: false, reason: "locked", retryAt: new Date(lastFailure.getTime() + lock * 1000) } : { ok: false, reason: "invalid" };
  }

  if (user.lockedUntil && user.lockedUntil > now) {
    await audit("auth.sign_in_refused", user.id, { reason: "locked", until: user.lockedUntil.toISOString() });
    return { ok: false, reason: "locked", retryAt: user.lockedUntil };
  }

  const passwordOk = await verifyPassword(password, user.passwordHash);
  if (passwordOk && !user.disabledAt) {
    await db().user.update({ where: { id: user.id }, data: { failedLogins: 0, lockedUntil: null, lastLoginAt: now } });
    await audit("auth.signed_in", user.id, {});
    return {
      ok: true,
      user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion },
    };
  }

  // One statement, so concurrent failures each count and each sees the lock it earned.
  const { SIGNIN_LOCKOUT_THRESHOLD: threshold, SIGNIN_LOCKOUT_BASE_SECONDS: base, SIGNIN_LOCKOUT_MAX_SECONDS: max } = env();
  const rows = await db().$queryRaw<{ failed_logins: number; locked_until: Date | null }[]>`
    UPDATE users SET
      failed_logins = failed_logins + 1,
      locked_until = CASE WHEN failed_logins + 1 >= ${threshold}
        THEN now() + make_interval(secs => LEAST(${base}::float8 * power(2, LEAST(failed_logins + 1 - ${threshold}, 30)), ${max}::float8))
        ELSE locked_until END
    WHERE id = ${user.id}
    RETURNING failed_logins, locked_until`;
  if (address) await countAddressFailure(address);
  const after = rows[0];
  const failures = after?.failed_logins ?? 0;
  await audit("auth.sign_in_failed", user.id, { reason: user.disabledAt ? "disabled" : "bad_password", failures });
  if (after?.locked_until && after.locked_until > now) {
    await audit("auth.locked_out", user.id, { until: after.locked_until.toISOString(), failures });
    return { ok: false, reason: "locked", retryAt: after.locked_until };
  }
  return { ok: false, reason: "invalid" };
}

async function unknownEmailLockedUntil(key: string, now: Date): Promise<Date | null> {
  const bucket = await db().rateLimitBucket.findUnique({ where: { key } });
  if (!bucket) return null;
  const lock = lockoutSeconds(bucket.count);
  if (lock === 0) return null;
  const until = new Date(bucket.windowStart.getTime() + lock * 1000);
  return until > now ? until : null;
}

/** For an unknown email, window_start is the time of the last failure and count the consecutive failures. */
async function countUnknownEmailFailure(key: string): Promise<{ failures: number; lastFailure: Date }> {
  const memory = UNKNOWN_EMAIL_MEMORY_MS / 1000;
  const rows = await db().$queryRaw<{ count: number; window_start: Date }[]>`
    INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${key}, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limit_buckets.window_start < now() - make_interval(secs => ${memory}::float8)
        THEN 1 ELSE rate_limit_buckets.count + 1 END,
      window_start = now()
    RETURNING count, window_start`;
  const row = rows[0]!;
  return { failures: row.count, lastFailure: row.window_start };
}

async function addressLockedUntil(address: string, now: Date): Promise<Date | null> {
  const bucket = await db().rateLimitBucket.findUnique({ where: { key: `signin-addr:${address}` } });
  if (!bucket) return null;
  const windowEnd = new Date(bucket.windowStart.getTime() + ADDRESS_WINDOW_MS);
  return windowEnd > now && bucket.count >= env().SIGNIN_ADDRESS_MAX_FAILURES ? windowEnd : null;
}

/** A fixed 15-minute window per address. */
async function countAddressFailure(address: string): Promise<void> {
  const windowSeconds = ADDRESS_WINDOW_MS / 1000;
  await db().$executeRaw`
    INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${`signin-addr:${address}`}, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limit_buckets.window_start <= now() - make_interval(secs => ${windowSeconds}::float8)
        THEN 1 ELSE rate_limit_buckets.count + 1 END,
      window_start = CASE WHEN rate_limit_buckets.window_start <= now() - make_interval(secs => ${windowSeconds}::float8)
        THEN now() ELSE rate_limit_buckets.window_start END`;
}
