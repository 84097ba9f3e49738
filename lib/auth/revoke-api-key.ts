// Revokes a partner's API key at once; audited in the same transaction.
import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/actor";
import { auditKeyChange } from "@/lib/auth/api-keys";
import { db } from "@/lib/db/prisma";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockApiKey } from "@/lib/auth/sql";

export type RevokeApiKeyOptions = { keyId: string; actor?: Actor };

/** Revokes at once; returns false when there is no such key. Revoking twice keeps the first time. */
export async function revokeApiKey({ keyId, actor = SYSTEM_ACTOR }: RevokeApiKeyOptions): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const [existing] = await inPrismaTx(tx, lockApiKey(keyId));
    if (!existing) return false;
    if (!existing.revoked_at) {
      await tx.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
      await auditKeyChange(tx, actor, "api_key.revoked", keyId, existing.partner_id);
    }
    return true;
  });
}
