// An admin disables a user (their sessions end at once; the last active admin cannot be disabled) or
// enables one again (which also lifts a lockout). Audited.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { assertAnotherActiveAdmin, findUserOrThrow } from "@/lib/users/user-guards";

export type SetUserDisabledOptions = { userId: string; disabled: boolean; actor: Actor };

export async function setUserDisabled({ userId, disabled, actor }: SetUserDisabledOptions): Promise<void> {
  await db().$transaction(async (tx) => {
    const user = await findUserOrThrow(tx, userId);
    if ((user.disabledAt !== null) === disabled) return;
    if (disabled && user.role === "admin") await assertAnotherActiveAdmin(tx, userId);
    await tx.user.update({
      where: { id: userId },
      data: disabled
        ? { disabledAt: new Date(), sessionVersion: { increment: 1 } }
        : { disabledAt: null, failedLogins: 0, lockedUntil: null },
    });
    await recordAuditEvent(
      {
        actor,
        action: disabled ? "user.disabled" : "user.enabled",
        details: { userId },
      },
      tx,
    );
  });
}
