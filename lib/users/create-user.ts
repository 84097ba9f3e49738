import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { hashPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db/prisma";
import { DomainError, parseInput } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { CreateUserWithLicenseSchema } from "@/lib/users/user-inputs";

/** Without an actor, the system's (the demo seed, tests). */
export type CreateUserOptions = {
  email: string;
  password: string;
  role: string;
  name?: string;
  licenseNumber?: string | null;
  actor?: Actor;
};

export async function createUser({ actor = SYSTEM_ACTOR, ...given }: CreateUserOptions) {
  // The schema the API and the CLI validate with: the seed and tests call this directly.
  const input = parseInput(CreateUserWithLicenseSchema, given);
  const email = input.email;
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
        role: input.role,
        licenseNumber: input.licenseNumber ?? null,
      },
    });
    await recordAuditEvent(
      {
        actor,
        action: "user.created",
        details: { userId: user.id, role: user.role, licenseNumber: user.licenseNumber },
      },
      tx,
    );
    return user;
  });
  return { userId: user.id };
}
