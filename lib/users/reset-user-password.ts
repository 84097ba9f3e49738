// An admin sets a user's password. Audited; it lifts a lockout and ends the user's sessions.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { hashPassword, MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { findUserOrThrow } from "@/lib/users/user-guards";

export type ResetUserPasswordOptions = { userId: string; password: string; actor: Actor };

export async function resetUserPassword({ userId, password, actor }: ResetUserPasswordOptions): Promise<void> {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new DomainError("invalid_input", `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const passwordHash = await hashPassword(password);
  await db().$transaction(async (tx) => {
    await findUserOrThrow(tx, userId);
    await tx.user.update({
      where: { id: userId },
      data: { passwordHash, failedLogins: 0, lockedUntil: null, sessionVersion: { increment: 1 } },
    });
    await recordAuditEvent(
      {
        actor,
        action: "user.password_reset",
        details: { userId },
      },
      tx,
    );
  });
}
