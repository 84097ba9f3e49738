// New recovery codes from the Security page, after a current code: the old ones stop working at once, the
// new ones are returned once and stored as hashes. Audited as auth.recovery_codes_regenerated.
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { confirmCurrentCode, type ConfirmedChange } from "@/lib/auth/two-factor/confirm-current-code";
import { generateRecoveryCodes, hashRecoveryCode, normalizeRecoveryCode } from "@/lib/auth/two-factor/recovery-codes";

export type RegenerateRecoveryCodesOptions = {
  userId: string;
  sessionId: string;
  code: unknown;
  clientAddress: string | null;
};

export async function regenerateRecoveryCodes(
  options: RegenerateRecoveryCodesOptions,
): Promise<ConfirmedChange<string[]>> {
  return confirmCurrentCode({
    userId: options.userId,
    code: options.code,
    clientAddress: options.clientAddress,
    step: "regenerate_recovery_codes",
    then: async (tx, user) => {
      const codes = generateRecoveryCodes();
      await tx.user.update({
        where: { id: user.id },
        data: { twoFactorRecoveryHashes: codes.map((c) => hashRecoveryCode(normalizeRecoveryCode(c)!)) },
      });
      await recordAuditEvent(
        {
          actor: userActor(user, options.clientAddress),
          action: "auth.recovery_codes_regenerated",
          details: { sessionId: options.sessionId, recoveryCodes: codes.length },
        },
        tx,
      );
      return codes;
    },
  });
}
