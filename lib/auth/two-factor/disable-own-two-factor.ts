// A user turns off their own two-factor from the Security page, after a current code, unless MFA_REQUIRED
// requires it for their role. Secret and recovery codes go; audited as auth.two_factor_disabled.
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Role } from "@/lib/auth/access-policy";
import { confirmCurrentCode, type ConfirmedChange } from "@/lib/auth/two-factor/confirm-current-code";
import { isTwoFactorRequired } from "@/lib/auth/two-factor/policy";

export type DisableOwnTwoFactorOptions = {
  userId: string;
  role: Role;
  sessionId: string;
  code: unknown;
  clientAddress: string | null;
};

export async function disableOwnTwoFactor(
  options: DisableOwnTwoFactorOptions,
): Promise<ConfirmedChange<true> | { ok: false; reason: "required" }> {
  if (isTwoFactorRequired(options.role)) return { ok: false, reason: "required" };
  return confirmCurrentCode({
    userId: options.userId,
    code: options.code,
    clientAddress: options.clientAddress,
    step: "disable_two_factor",
    then: async (tx, user) => {
      await tx.user.update({
        where: { id: user.id },
        data: {
          twoFactorSecret: null,
          twoFactorPendingSecret: null,
          twoFactorEnabledAt: null,
          twoFactorLastStep: null,
          twoFactorRecoveryHashes: [],
        },
      });
      await recordAuditEvent(
        {
          actor: userActor(user, options.clientAddress),
          action: "auth.two_factor_disabled",
          details: { sessionId: options.sessionId },
        },
        tx,
      );
      return true as const;
    },
  });
}
