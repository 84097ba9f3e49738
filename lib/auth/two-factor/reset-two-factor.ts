// An admin's (or the CLI's) reset of a user's two-factor: the secret and recovery codes are dropped and
// every session of that user ends, in one transaction with its audit record (user.two_factor_reset).
// The user enrols again at their next sign-in if MFA_REQUIRED applies to them.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";

export async function resetTwoFactor(
  userId: string,
  actor: Actor,
): Promise<{ userId: string; wasEnabled: boolean; sessionsEnded: number }> {
  return db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true, twoFactorEnabledAt: true } });
    if (!user) throw new DomainError("not_found", `no user ${userId}`);
    await tx.user.update({
      where: { id: userId },
      data: {
        twoFactorSecret: null,
        twoFactorPendingSecret: null,
        twoFactorEnabledAt: null,
        twoFactorLastStep: null,
        twoFactorRecoveryHashes: [],
      },
    });
    const ended = await tx.userSession.deleteMany({ where: { userId } });
    const result = { userId, wasEnabled: user.twoFactorEnabledAt !== null, sessionsEnded: ended.count };
    await recordAuditEvent(
      {
        actor,
        action: "user.two_factor_reset",
        details: result,
      },
      tx,
    );
    return result;
  });
}
