// Email + password sign-in with lockout. Every counter lives in PostgreSQL, so all instances share it:
//   - per account (users.failed_logins / locked_until): after SIGNIN_LOCKOUT_THRESHOLD consecutive
//     failures the account is locked for SIGNIN_LOCKOUT_BASE_SECONDS, doubling with each further failure
//     up to SIGNIN_LOCKOUT_MAX_SECONDS; a success resets it.
//   - per unknown email (rate_limit_buckets `signin-email:<hmac>`): exactly the same rule and the same
//     answers, so the answers never tell whether an account exists. The password is hashed against a
//     dummy hash so the time taken does not tell either.
//   - per client address (rate_limit_buckets `signin-addr:<address>`): at most SIGNIN_ADDRESS_MAX_FAILURES
//     failures per 15 minutes, whatever the emails (password spraying).
// Each attempt is counted BEFORE its password is checked, by one UPDATE … RETURNING per counter that
// refuses while the lock holds and sets the lock when the count reaches the threshold. So concurrent
// attempts cannot all slip in before the lock: at most THRESHOLD passwords are ever checked per lock. A
// success gives its reservation back (the address) or resets the count (the account).
// While locked, attempts are refused without checking the password and without extending the lock.
// The audit log never holds the typed email of a failed sign-in (it may be a password typed in the wrong
// field): an unknown email is recorded as actor "unknown" with an HMAC of it (keyed with AUTH_SECRET, so
// a copy of the database cannot be searched for guessed emails).
import { createHash, createHmac } from "node:crypto";
import type { Role } from "@/lib/auth/access-policy";
import { hashPassword, needsRehash, verifyPassword } from "@/lib/auth/passwords";
import { secondFactorDue } from "@/lib/auth/two-factor/policy";
import { createUserSession } from "@/lib/auth/user-sessions";
import { namedActor, userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { textProblem } from "@/lib/text-safety";
import {
  releaseAddressFailure,
  reserveAccountFailure,
  reserveAddressFailure,
  reserveUnknownEmailFailure,
  selectAccountLock,
} from "@/lib/auth/sql";

export type SignedInUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  sessionVersion: number;
  sessionId: string;
};

export type SignInOutcome =
  { ok: true; user: SignedInUser } | { ok: false; reason: "invalid" } | { ok: false; reason: "locked"; retryAt: Date };

export const ADDRESS_WINDOW_MS = 15 * 60_000;
/** An unknown email's failures are forgotten after a day without another failure. */
const UNKNOWN_EMAIL_MEMORY_MS = 24 * 3_600_000;
const MAX_EMAIL_LENGTH = 254;
const MAX_PASSWORD_LENGTH = 1024;
/** Who a failed sign-in with an email that names no account is recorded as. */
export const UNKNOWN_ACTOR = "unknown";

/** Seconds of lockout earned by `failures` consecutive failures (0 below the threshold). */
export function lockoutSeconds(failures: number): number {
  const {
    SIGNIN_LOCKOUT_THRESHOLD: threshold,
    SIGNIN_LOCKOUT_BASE_SECONDS: base,
    SIGNIN_LOCKOUT_MAX_SECONDS: max,
  } = env();
  if (failures < threshold) return 0;
  const doublings = Math.min(failures - threshold, 30);
  return Math.min(base * 2 ** doublings, max);
}

/** What the audit log and the unknown-email counter know of a typed email: HMAC-SHA256 keyed with AUTH_SECRET. */
export function emailDigest(normalizedEmail: string): string {
  const secret = env().AUTH_SECRET;
  return secret
    ? createHmac("sha256", secret).update(`signin-email:${normalizedEmail}`).digest("hex")
    : createHash("sha256").update(normalizedEmail).digest("hex");
}

let dummyHash: Promise<string> | undefined;

type AuditDetails = Record<string, string | number | null>;

export async function attemptSignIn(input: {
  email: unknown;
  password: unknown;
  clientAddress: string | null;
}): Promise<SignInOutcome> {
  const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : "";
  const password = typeof input.password === "string" ? input.password : "";
  // An email PostgreSQL cannot hold (lib/text-safety.ts) names no account: the same answer as a wrong one.
  if (
    !email ||
    !password ||
    email.length > MAX_EMAIL_LENGTH ||
    password.length > MAX_PASSWORD_LENGTH ||
    textProblem(email)
  ) {
    return { ok: false, reason: "invalid" };
  }
  const address = input.clientAddress;
  const user = await db().user.findUnique({ where: { email } });
  const digest = emailDigest(email);
  const audit = (action: string, details: AuditDetails) =>
    user
      ? recordAuditEvent({ actor: userActor(user, address), action, details })
      : recordAuditEvent({
          actor: namedActor(UNKNOWN_ACTOR, address),
          action,
          details: { ...details, emailHmac: digest },
        });

  const addressReserved = address ? await reserveAddressAttempt(address) : { ok: true as const };
  if (!addressReserved.ok) {
    await audit("auth.sign_in_refused", { reason: "address_locked", until: addressReserved.until.toISOString() });
    return { ok: false, reason: "locked", retryAt: addressReserved.until };
  }
  const giveAddressBack = () => (address ? releaseAddressAttempt(address) : Promise.resolve());

  if (!user) {
    const reserved = await reserveUnknownEmailAttempt(`signin-email:${digest}`);
    if (!reserved.ok) {
      await giveAddressBack();
      await audit("auth.sign_in_refused", { reason: "locked" });
      return { ok: false, reason: "locked", retryAt: reserved.until };
    }
    dummyHash ??= hashPassword("not-a-password-of-anyone");
    await verifyPassword(password, await dummyHash);
    await audit("auth.sign_in_failed", { reason: "unknown_email", failures: reserved.failures });
    return reserved.lockedUntil
      ? { ok: false, reason: "locked", retryAt: reserved.lockedUntil }
      : { ok: false, reason: "invalid" };
  }

  const reserved = await reserveAccountAttempt(user.id);
  if (!reserved.ok) {
    await giveAddressBack();
    if (!reserved.until) return { ok: false, reason: "invalid" }; // the lock ran out meanwhile: try again
    await audit("auth.sign_in_refused", { reason: "locked", until: reserved.until.toISOString() });
    return { ok: false, reason: "locked", retryAt: reserved.until };
  }

  const passwordOk = await verifyPassword(password, user.passwordHash);
  if (passwordOk && !user.disabledAt) {
    await giveAddressBack();
    // An old hash (scrypt, or weaker parameters) is replaced while the password is at hand.
    const upgraded = needsRehash(user.passwordHash) ? await hashPassword(password) : null;
    // With a second factor still due, the session opens only the two-factor step (or enrolment), and the
    // failure count is not reset yet: only this attempt's reservation is given back, so re-entering the
    // password never buys more guesses at the code.
    const due = secondFactorDue(user);
    const sessionId = await db().$transaction(async (tx) => {
      const now = new Date();
      await tx.user.update({
        where: { id: user.id },
        data: {
          ...(due ? { failedLogins: { decrement: 1 } } : { failedLogins: 0, lockedUntil: null, lastLoginAt: now }),
          ...(upgraded ? { passwordHash: upgraded } : {}),
        },
      });
      const id = await createUserSession(tx, user.id, address, now, due);
      await recordAuditEvent(
        {
          actor: userActor(user, address),
          action: due ? "auth.password_verified" : "auth.signed_in",
          details: due
            ? { sessionId: id, secondFactor: due, method: "password" }
            : { sessionId: id, method: "password" },
        },
        tx,
      );
      if (upgraded) {
        await recordAuditEvent(
          {
            actor: userActor(user, address),
            action: "auth.password_rehashed",
            details: { from: hashScheme(user.passwordHash), to: hashScheme(upgraded) },
          },
          tx,
        );
      }
      return id;
    });
    return {
      ok: true,
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        role: user.role,
        sessionVersion: user.sessionVersion,
        sessionId,
      },
    };
  }

  const failures = reserved.failures;
  await audit("auth.sign_in_failed", { reason: user.disabledAt ? "disabled" : "bad_password", failures });
  if (reserved.lockedUntil) {
    await audit("auth.locked_out", { until: reserved.lockedUntil.toISOString(), failures });
    return { ok: false, reason: "locked", retryAt: reserved.lockedUntil };
  }
  return { ok: false, reason: "invalid" };
}

/** `argon2id`, `scrypt`: the scheme of a stored hash, for the audit record (never the hash). */
function hashScheme(stored: string): string {
  return stored.startsWith("$") ? (stored.split("$")[1] ?? "unknown") : (stored.split("$")[0] ?? "unknown");
}

export type Reservation = { ok: true; failures: number; lockedUntil: Date | null } | { ok: false; until: Date | null };

/**
 * Counts this attempt as a failure in advance, unless the account is locked; the count that reaches the
 * threshold sets the lock in the same statement, so every later concurrent attempt is refused.
 */
export async function reserveAccountAttempt(userId: string): Promise<Reservation> {
  const {
    SIGNIN_LOCKOUT_THRESHOLD: threshold,
    SIGNIN_LOCKOUT_BASE_SECONDS: base,
    SIGNIN_LOCKOUT_MAX_SECONDS: max,
  } = env();
  const rows = await reserveAccountFailure(userId, { threshold, baseSeconds: base, maxSeconds: max }).execute();
  const row = rows[0];
  if (row)
    return {
      ok: true,
      failures: row.failed_logins,
      lockedUntil: row.locked_until && row.locked_until > row.now ? row.locked_until : null,
    };
  const current = await selectAccountLock(userId).execute();
  return { ok: false, until: current[0]?.locked_until ?? null };
}

/**
 * The same for an email that names no account. window_start is the time of the last failure and count
 * the consecutive failures (forgotten after a day); locked while window_start + lockout(count) is ahead.
 */
async function reserveUnknownEmailAttempt(
  key: string,
): Promise<{ ok: true; failures: number; lockedUntil: Date | null } | { ok: false; until: Date }> {
  const {
    SIGNIN_LOCKOUT_THRESHOLD: threshold,
    SIGNIN_LOCKOUT_BASE_SECONDS: base,
    SIGNIN_LOCKOUT_MAX_SECONDS: max,
  } = env();
  const memory = UNKNOWN_EMAIL_MEMORY_MS / 1000;
  const rows = await reserveUnknownEmailFailure(key, memory, {
    threshold,
    baseSeconds: base,
    maxSeconds: max,
  }).execute();
  const row = rows[0];
  if (row) {
    const lock = lockoutSeconds(row.count);
    // From the stored failure time, as the refusal below computes it: every answer names the same instant.
    return {
      ok: true,
      failures: row.count,
      lockedUntil: lock > 0 ? new Date(row.window_start.getTime() + lock * 1000) : null,
    };
  }
  const bucket = await db().rateLimitBucket.findUnique({ where: { key } });
  const lock = bucket ? lockoutSeconds(bucket.count) : 0;
  return { ok: false, until: bucket ? new Date(bucket.windowStart.getTime() + lock * 1000) : new Date() };
}

/** A fixed 15-minute window per address; refused once it holds SIGNIN_ADDRESS_MAX_FAILURES. */
async function reserveAddressAttempt(address: string): Promise<{ ok: true } | { ok: false; until: Date }> {
  const windowSeconds = ADDRESS_WINDOW_MS / 1000;
  const key = `signin-addr:${address}`;
  const rows = await reserveAddressFailure(key, windowSeconds, env().SIGNIN_ADDRESS_MAX_FAILURES).execute();
  if (rows.length > 0) return { ok: true };
  const bucket = await db().rateLimitBucket.findUnique({ where: { key } });
  return { ok: false, until: new Date((bucket?.windowStart.getTime() ?? Date.now()) + ADDRESS_WINDOW_MS) };
}

/** The attempt turned out not to be a failure (a success, or refused by the account's lock). */
async function releaseAddressAttempt(address: string): Promise<void> {
  await releaseAddressFailure(`signin-addr:${address}`).execute();
}
