// Checks the user operations share, inside their transaction: the user exists, and a change that takes an
// admin away leaves another active admin.
import type { Prisma } from "@/generated/prisma/client";
import { DomainError } from "@/lib/errors";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockActiveAdmins } from "@/lib/users/sql";

type Tx = Prisma.TransactionClient;

export async function findUserOrThrow(tx: Tx, userId: string) {
  const user = await tx.user.findUnique({ where: { id: userId } });
  if (!user) throw new DomainError("not_found", `no user ${userId}`);
  return user;
}

/** Locks the active admins so two concurrent changes cannot both remove "the other" last admin. */
export async function assertAnotherActiveAdmin(tx: Tx, userId: string): Promise<void> {
  const admins = await inPrismaTx(tx, lockActiveAdmins());
  if (!admins.some((a) => a.id !== userId)) {
    throw new DomainError("conflict", "this is the last active admin: make another user admin first");
  }
}
