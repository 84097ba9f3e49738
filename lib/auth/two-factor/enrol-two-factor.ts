// Enrolment from the user's own Security page: a new secret (sealed, owner `user:<id>:totp`) is kept as
// pending and shown as a QR code and as text; two-factor is switched on only when one code from it is
// confirmed. Then ten recovery codes are made, returned once, and stored as hashes. A session that had
// to enrol (MFA_REQUIRED) becomes a full session at that moment. Enrolment is audited.
import QRCode from "qrcode";
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { completeSignIn } from "@/lib/auth/two-factor/verify-second-factor";
import { generateRecoveryCodes, hashRecoveryCode, normalizeRecoveryCode } from "@/lib/auth/two-factor/recovery-codes";
import { checkTotpCode, createTotpSecret, totpUri, type TotpCheck } from "@/lib/auth/two-factor/totp";
import { openSecret, sealSecret, secretOwner } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";

export type EnrolmentStart = { secret: string; uri: string; qrSvg: string };

export async function startTwoFactorEnrolment(userId: string): Promise<EnrolmentStart> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { email: true, twoFactorEnabledAt: true } });
  if (!user) throw new DomainError("not_found", "no such user");
  if (user.twoFactorEnabledAt) throw new DomainError("conflict", "Two-factor sign-in is already on.");
  const secret = createTotpSecret();
  await db().user.update({
    where: { id: userId },
    data: { twoFactorPendingSecret: sealSecret(secret, secretOwner.totpSecret(userId)) },
  });
  const uri = totpUri(secret, user.email);
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, uri, qrSvg };
}

export type EnrolmentOutcome =
  | { ok: true; recoveryCodes: string[] }
  | { ok: false; refusal: Exclude<TotpCheck, { ok: true }> | { ok: false; reason: "not_started" } };

export async function confirmTwoFactorEnrolment(input: {
  userId: string;
  sessionId: string;
  code: unknown;
  clientAddress: string | null;
  now?: number;
}): Promise<EnrolmentOutcome> {
  const now = input.now ?? Date.now();
  const user = await db().user.findUnique({ where: { id: input.userId } });
  if (!user?.twoFactorPendingSecret || user.twoFactorEnabledAt)
    return { ok: false, refusal: { ok: false, reason: "not_started" } };
  const owner = secretOwner.totpSecret(user.id);
  const check = checkTotpCode(
    openSecret(user.twoFactorPendingSecret, owner),
    typeof input.code === "string" ? input.code.slice(0, 64) : "",
    now,
    null,
  );
  if (!check.ok) return { ok: false, refusal: check };
  const recoveryCodes = generateRecoveryCodes();
  const hashes = recoveryCodes.map((c) => hashRecoveryCode(normalizeRecoveryCode(c)!));
  const actor = userActor(user, input.clientAddress);
  const done = await db().$transaction(async (tx) => {
    const updated = await tx.user.updateMany({
      where: { id: user.id, twoFactorEnabledAt: null, twoFactorPendingSecret: user.twoFactorPendingSecret },
      data: {
        twoFactorSecret: user.twoFactorPendingSecret,
        twoFactorPendingSecret: null,
        twoFactorEnabledAt: new Date(now),
        twoFactorLastStep: check.step,
        twoFactorRecoveryHashes: hashes,
      },
    });
    if (updated.count !== 1) return false;
    await recordAuditEvent(
      {
        actor,
        action: "auth.two_factor_enrolled",
        details: { sessionId: input.sessionId, recoveryCodes: hashes.length },
      },
      tx,
    );
    const session = await tx.userSession.findFirst({
      where: { id: input.sessionId, userId: user.id, secondFactor: "enrol" },
    });
    if (session) await completeSignIn(tx, user.id, session.id, session.createdAt, "enrolled", actor);
    return true;
  });
  return done ? { ok: true, recoveryCodes } : { ok: false, refusal: { ok: false, reason: "not_started" } };
}

export type TwoFactorStatus = { enabled: boolean; enabledAt: Date | null; recoveryCodesLeft: number };

export async function twoFactorStatus(userId: string): Promise<TwoFactorStatus> {
  const user = await db().user.findUnique({
    where: { id: userId },
    select: { twoFactorEnabledAt: true, twoFactorRecoveryHashes: true },
  });
  return {
    enabled: Boolean(user?.twoFactorEnabledAt),
    enabledAt: user?.twoFactorEnabledAt ?? null,
    recoveryCodesLeft: user?.twoFactorRecoveryHashes.length ?? 0,
  };
}
