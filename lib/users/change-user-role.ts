// An admin gives a user another role. Audited; the user's sessions end at once (the session version is
// bumped), and the last active admin cannot be demoted.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { USER_ROLES, type UserRole } from "@/lib/users/roles";
import { assertAnotherActiveAdmin, findUserOrThrow } from "@/lib/users/user-guards";

export type ChangeUserRoleOptions = { userId: string; role: string; actor: Actor };

export async function changeUserRole({ userId, role, actor }: ChangeUserRoleOptions): Promise<void> {
  if (!(USER_ROLES as readonly string[]).includes(role))
    throw new DomainError("invalid_input", `role must be one of ${USER_ROLES.join(", ")}`);
  await db().$transaction(async (tx) => {
    const user = await findUserOrThrow(tx, userId);
    if (user.role === role) return;
    if (user.role === "admin") await assertAnotherActiveAdmin(tx, userId);
    await tx.user.update({ where: { id: userId }, data: { role: role as UserRole, sessionVersion: { increment: 1 } } });
    await recordAuditEvent(
      {
        actor,
        action: "user.role_changed",
        details: { userId, from: user.role, to: role },
      },
      tx,
    );
  });
}
