// Admin operations on dashboard users. Each is audited, and each that changes what a user may do bumps
// the user's session version so that sessions issued before stop working at once.
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Actor } from "@/lib/audit/actor";
import { hashPassword, MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { countLiveSessions } from "@/lib/auth/user-sessions";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { USER_ROLES, type UserRole } from "@/lib/users/roles";
import { normalizeLicenseNumber } from "@/lib/users/user-inputs";
import type { Prisma } from "@/generated/prisma/client";

type Tx = Prisma.TransactionClient;

async function findUserOrThrow(tx: Tx, userId: string) {
  const user = await tx.user.findUnique({ where: { id: userId } });
  if (!user) throw new DomainError("not_found", `no user ${userId}`);
  return user;
}

/** Locks the active admins so two concurrent changes cannot both remove "the other" last admin. */
async function assertAnotherActiveAdmin(tx: Tx, userId: string): Promise<void> {
  const admins = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM users WHERE role = 'admin' AND disabled_at IS NULL FOR UPDATE`;
  if (!admins.some((a) => a.id !== userId)) {
    throw new DomainError("conflict", "this is the last active admin: make another user admin first");
  }
}

export async function changeUserRole(userId: string, role: string, actor: Actor): Promise<void> {
  if (!(USER_ROLES as readonly string[]).includes(role)) throw new DomainError("invalid_input", `role must be one of ${USER_ROLES.join(", ")}`);
  await db().$transaction(async (tx) => {
    const user = await findUserOrThrow(tx, userId);
    if (user.role === role) return;
    if (user.role === "admin") await assertAnotherActiveAdmin(tx, userId);
    await tx.user.update({ where: { id: userId }, data: { role: role as UserRole, sessionVersion: { increment: 1 } } });
    await recordAuditEvent({ userId: actor.userId, actor: actor.label, action: "user.role_changed", clientAddress: actor.clientAddress, details: { userId, from: user.role, to: role } }, tx);
  });
}

export async function setUserDisabled(userId: string, disabled: boolean, actor: Actor): Promise<void> {
  await db().$transaction(async (tx) => {
    const user = await findUserOrThrow(tx, userId);
    if ((user.disabledAt !== null) === disabled) return;
    if (disabled && user.role === "admin") await assertAnotherActiveAdmin(tx, userId);
    await tx.user.update({
      where: { id: userId },
      data: disabled ? { disabledAt: new Date(), sessionVersion: { increment: 1 } } : { disabledAt: null, failedLogins: 0, lockedUntil: null },
    });
    await recordAuditEvent({ userId: actor.userId, actor: actor.label, action: disabled ? "user.disabled" : "user.enabled", clientAddress: actor.clientAddress, details: { userId } }, tx);
  });
}

export async function resetUserPassword(userId: string, password: string, actor: Actor): Promise<void> {
  if (password.length < MIN_PASSWORD_LENGTH) throw new DomainError("invalid_input", `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const passwordHash = await hashPassword(password);
  await db().$transaction(async (tx) => {
    await findUserOrThrow(tx, userId);
    await tx.user.update({ where: { id: userId }, data: { passwordHash, failedLogins: 0, lockedUntil: null, sessionVersion: { increment: 1 } } });
    await recordAuditEvent({ userId: actor.userId, actor: actor.label, action: "user.password_reset", clientAddress: actor.clientAddress, details: { userId } }, tx);
  });
}

/**
 * Sets (or, with null or "", clears) the licence number printed on the records a pharmacist approves from now
 * on; records already approved keep the number they were made with. No session ends: it grants nothing.
 */
export async function setUserLicenseNumber(userId: string, licenseNumber: string | null, actor: Actor): Promise<{ userId: string; licenseNumber: string | null }> {
  const license = normalizeLicenseNumber(licenseNumber);
  if (!license.ok) throw new DomainError("invalid_input", license.message);
  await db().$transaction(async (tx) => {
    // Locked, so that the audit record's "from" is the value this change replaced.
    const [user] = await tx.$queryRaw<{ license_number: string | null }[]>`SELECT license_number FROM users WHERE id = ${userId} FOR UPDATE`;
    if (!user) throw new DomainError("not_found", `no user ${userId}`);
    if (user.license_number === license.value) return;
    await tx.user.update({ where: { id: userId }, data: { licenseNumber: license.value } });
    await recordAuditEvent(
      { userId: actor.userId, actor: actor.label, action: "user.license_changed", clientAddress: actor.clientAddress, details: { userId, from: user.license_number, to: license.value } },
      tx,
    );
  });
  return { userId, licenseNumber: license.value };
}

export async function listUsers() {
  const [users, sessions] = await Promise.all([db().user.findMany({ orderBy: { createdAt: "asc" } }), countLiveSessions()]);
  return users.map((u) => ({
    userId: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    licenseNumber: u.licenseNumber,
    disabled: u.disabledAt !== null,
    lockedUntil: u.lockedUntil?.toISOString() ?? null,
    lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
    /** Sessions not yet signed out nor past SESSION_MAX_HOURS (some may have idled out meanwhile). */
    openSessions: sessions.get(u.id) ?? 0,
    twoFactor: u.twoFactorEnabledAt !== null,
    createdAt: u.createdAt.toISOString(),
  }));
}
