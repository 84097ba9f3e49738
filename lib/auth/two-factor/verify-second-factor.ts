// The second step of a password sign-in: a 6-digit TOTP code or a recovery code, for the session row the
// password step left in state `verify` (lib/auth/attempt-sign-in.ts). Every attempt is counted against
// the account BEFORE the code is checked, on the same counter and lockout as passwords, so a stolen
// password gives only SIGNIN_LOCKOUT_THRESHOLD guesses per lock. An accepted TOTP step is stored and
// the UPDATE refuses any step not later than it (atomic: two requests with one code cannot both pass). A
// recovery code is removed from the stored hashes by the statement that accepts it.
import { userActor, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { reserveAccountAttempt } from "@/lib/auth/attempt-sign-in";
import { sessionMaxMs } from "@/lib/auth/session-claims";
import { checkTotpCode } from "@/lib/auth/two-factor/totp";
import { hashRecoveryCode, looksLikeRecoveryCode, normalizeRecoveryCode } from "@/lib/auth/two-factor/recovery-codes";
import { openSecret, secretOwner } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/prisma";
import { inPrismaTx } from "@/lib/db/kysely";
import { acceptTotpStep, spendRecoveryCode } from "@/lib/auth/sql";

export type SecondFactorRefusal =
  | { reason: "wrong" | "expired" | "replayed" | "recovery_used" | "expired_sign_in" }
  | { reason: "clock_skew"; offsetSeconds: number }
  | { reason: "locked"; retryAt: Date | null };

export type SecondFactorOutcome =
  { ok: true; method: "totp" | "recovery_code"; recoveryCodesLeft?: number } | ({ ok: false } & SecondFactorRefusal);

const MAX_CODE_INPUT = 64;

export async function verifySecondFactor(input: {
  userId: string;
  sessionId: string;
  code: unknown;
  clientAddress: string | null;
  now?: number;
}): Promise<SecondFactorOutcome> {
  const now = input.now ?? Date.now();
  const code = typeof input.code === "string" ? input.code.slice(0, MAX_CODE_INPUT) : "";
  const session = await db().userSession.findFirst({
    where: { id: input.sessionId, userId: input.userId, secondFactor: "verify", expiresAt: { gt: new Date(now) } },
    include: { user: true },
  });
  if (!session || !session.user.twoFactorSecret || session.user.disabledAt)
    return { ok: false, reason: "expired_sign_in" };
  const user = session.user;
  const sealedSecret = session.user.twoFactorSecret;
  const actor = userActor(user, input.clientAddress);
  const audit = (action: string, details: Record<string, string | number | null>) =>
    recordAuditEvent({ actor, action, details: { sessionId: session.id, ...details } });

  const reserved = await reserveAccountAttempt(user.id);
  if (!reserved.ok) {
    if (reserved.until)
      await audit("auth.sign_in_refused", {
        reason: "locked",
        step: "second_factor",
        until: reserved.until.toISOString(),
      });
    return { ok: false, reason: "locked", retryAt: reserved.until };
  }

  const outcome = looksLikeRecoveryCode(code)
    ? await tryRecoveryCode(user.id, session.id, session.createdAt, code, actor)
    : await tryTotp(user.id, sealedSecret, user.twoFactorLastStep, session.id, session.createdAt, code, now, actor);
  if (outcome.ok) return outcome;

  await audit("auth.second_factor_failed", { reason: outcome.reason, failures: reserved.failures });
  if (reserved.lockedUntil) {
    await audit("auth.locked_out", { until: reserved.lockedUntil.toISOString(), failures: reserved.failures });
    return { ok: false, reason: "locked", retryAt: reserved.lockedUntil };
  }
  return outcome;
}

type Attempt = SecondFactorOutcome;

async function tryTotp(
  userId: string,
  sealed: string,
  lastStep: bigint | null,
  sessionId: string,
  sessionCreatedAt: Date,
  code: string,
  now: number,
  actor: Actor,
): Promise<Attempt> {
  const check = checkTotpCode(
    openSecret(sealed, secretOwner.totpSecret(userId)),
    code,
    now,
    lastStep === null ? null : Number(lastStep),
  );
  if (!check.ok)
    return check.reason === "clock_skew"
      ? { ok: false, reason: "clock_skew", offsetSeconds: check.offsetSeconds }
      : { ok: false, reason: check.reason };
  const accepted = await db().$transaction(async (tx) => {
    const rows = await inPrismaTx(tx, acceptTotpStep(userId, check.step, { clearLockout: false }));
    if (rows.length === 0) return false;
    await completeSignIn(tx, userId, sessionId, sessionCreatedAt, "totp", actor);
    return true;
  });
  return accepted ? { ok: true, method: "totp" } : { ok: false, reason: "replayed" };
}

async function tryRecoveryCode(
  userId: string,
  sessionId: string,
  sessionCreatedAt: Date,
  code: string,
  actor: Actor,
): Promise<Attempt> {
  const normalized = normalizeRecoveryCode(code);
  if (!normalized) return { ok: false, reason: "recovery_used" };
  const hash = hashRecoveryCode(normalized);
  const left = await db().$transaction(async (tx) => {
    const rows = await inPrismaTx(tx, spendRecoveryCode(userId, hash));
    const row = rows[0];
    if (!row) return null;
    await recordAuditEvent(
      { actor, action: "auth.recovery_code_used", details: { sessionId, recoveryCodesLeft: row.left } },
      tx,
    );
    await completeSignIn(tx, userId, sessionId, sessionCreatedAt, "recovery_code", actor);
    return row.left;
  });
  return left === null
    ? { ok: false, reason: "recovery_used" }
    : { ok: true, method: "recovery_code", recoveryCodesLeft: left };
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["$transaction"]>[0]>[0];

/** The session becomes a full one (its lifetime from sign-in restored); the failure count is reset. */
export async function completeSignIn(
  tx: Tx,
  userId: string,
  sessionId: string,
  sessionCreatedAt: Date,
  method: string,
  actor: Actor,
): Promise<void> {
  await tx.user.update({
    where: { id: userId },
    data: { failedLogins: 0, lockedUntil: null, lastLoginAt: new Date() },
  });
  await tx.userSession.update({
    where: { id: sessionId },
    data: { secondFactor: null, expiresAt: new Date(sessionCreatedAt.getTime() + sessionMaxMs()) },
  });
  await recordAuditEvent(
    { actor, action: "auth.signed_in", details: { sessionId, method: "password", secondFactor: method } },
    tx,
  );
}
