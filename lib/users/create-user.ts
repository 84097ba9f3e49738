import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { hashPassword, MIN_PASSWORD_LENGTH } from "@/lib/auth/passwords";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { USER_ROLES, type UserRole } from "@/lib/users/roles";
import { normalizeLicenseNumber } from "@/lib/users/user-inputs";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Without an actor, the system's (the demo seed, tests). */
export type CreateUserOptions = {
  email: string;
  password: string;
  role: string;
  name?: string;
  licenseNumber?: string | null;
  actor?: Actor;
};

export async function createUser({ actor = SYSTEM_ACTOR, ...input }: CreateUserOptions) {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254) throw new DomainError("invalid_input", "email is not a valid address");
  if (!(USER_ROLES as readonly string[]).includes(input.role)) {
    throw new DomainError("invalid_input", `role must be one of ${USER_ROLES.join(", ")}`);
  }
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    throw new DomainError("invalid_input", `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const license = normalizeLicenseNumber(input.licenseNumber);
  if (!license.ok) throw new DomainError("invalid_input", license.message);
  const existing = await db().user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw new DomainError("conflict", `a user with email ${email} already exists`);
  const passwordHash = await hashPassword(input.password); // slow on purpose: outside the transaction
  const user = await db().$transaction(async (tx) => {
    const user = await tx.user.create({
      data: {
        id: newId("usr"),
        email,
        name: input.name?.trim() || email.split("@")[0]!,
        passwordHash,
        role: input.role as UserRole,
        licenseNumber: license.value,
      },
    });
    await recordAuditEvent(
      {
        userId: actor.userId,
        actor: actor.label,
        action: "user.created",
        clientAddress: actor.clientAddress,
        details: { userId: user.id, role: user.role, licenseNumber: user.licenseNumber },
      },
      tx,
    );
    return user;
  });
  return { userId: user.id };
}
