// The users' sealed TOTP secrets (enrolled and pending) as lib/partners/sealed-secrets.ts sees them: opened
// at start to prove the key, and re-sealed under the current DATA_ENCRYPTION_KEY by `secrets rotate-key`,
// so that retiring DATA_ENCRYPTION_KEY_PREVIOUS never locks anyone out of two-factor sign-in.
import type { Prisma } from "@/generated/prisma/client";
import { isSealedUnderCurrentKey, openSecret, sealSecret, secretOwner } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/prisma";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockUsersWithTotpSecrets } from "@/lib/auth/sql";

const COLUMNS = ["twoFactorSecret", "twoFactorPendingSecret"] as const;
const SELECT = { id: true, twoFactorSecret: true, twoFactorPendingSecret: true } as const;
const WITH_SECRET = { OR: [{ twoFactorSecret: { not: null } }, { twoFactorPendingSecret: { not: null } }] };

export async function checkTotpSecrets(): Promise<{ secrets: number; underCurrentKey: number }> {
  const users = await db().user.findMany({ where: WITH_SECRET, select: SELECT });
  let secrets = 0;
  let underCurrentKey = 0;
  for (const u of users) {
    for (const column of COLUMNS) {
      const sealed = u[column];
      if (sealed === null) continue;
      openSecret(sealed, secretOwner.totpSecret(u.id));
      secrets++;
      if (isSealedUnderCurrentKey(sealed)) underCurrentKey++;
    }
  }
  return { secrets, underCurrentKey };
}

/** Inside the rotation's transaction (rows locked): re-seals what is not under the current key. */
export async function resealTotpSecrets(tx: Prisma.TransactionClient): Promise<{ secrets: number; resealed: number }> {
  await inPrismaTx(tx, lockUsersWithTotpSecrets());
  const users = await tx.user.findMany({ where: WITH_SECRET, select: SELECT, orderBy: { id: "asc" } });
  let secrets = 0;
  let resealed = 0;
  for (const u of users) {
    const owner = secretOwner.totpSecret(u.id);
    const data: Partial<Record<(typeof COLUMNS)[number], string>> = {};
    for (const column of COLUMNS) {
      const sealed = u[column];
      if (sealed === null) continue;
      secrets++;
      const plain = openSecret(sealed, owner); // proves it opens either way
      if (isSealedUnderCurrentKey(sealed)) continue;
      data[column] = sealSecret(plain, owner);
      resealed++;
    }
    if (Object.keys(data).length > 0) await tx.user.update({ where: { id: u.id }, data });
  }
  return { secrets, resealed };
}
