// A new key for the same partner, returned once; the old one keeps working until the overlap ends, then
// expires. Audited in the same transaction.
import type { Actor } from "@/lib/audit/actor";
import { auditKeyChange, type CreatedApiKey } from "@/lib/auth/api-keys";
import { createApiKey } from "@/lib/auth/create-api-key";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { isOverlapWithin, MAX_KEY_OVERLAP_HOURS } from "@/lib/partners/credential-rules";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockApiKey } from "@/lib/auth/sql";

export type RotateApiKeyOptions = { keyId: string; overlapHours: number; actor: Actor };

/** A new key for the same partner; the old one keeps working until the overlap ends, then expires. */
export async function rotateApiKey({
  keyId,
  overlapHours,
  actor,
}: RotateApiKeyOptions): Promise<CreatedApiKey & { oldKeyExpiresAt: string }> {
  if (!isOverlapWithin(overlapHours, MAX_KEY_OVERLAP_HOURS)) {
    throw new DomainError("invalid_input", `overlap must be 0 to ${MAX_KEY_OVERLAP_HOURS} hours`);
  }
  return db().$transaction(async (tx) => {
    const [old] = await inPrismaTx(tx, lockApiKey(keyId));
    if (!old || old.revoked_at) throw new DomainError("not_found", `no active API key ${keyId}`);
    const oldKeyExpiresAt = new Date(Date.now() + overlapHours * 3_600_000);
    const created = await createApiKey({ partnerId: old.partner_id, tx });
    const expiresAt = old.expires_at && old.expires_at < oldKeyExpiresAt ? old.expires_at : oldKeyExpiresAt;
    await tx.apiKey.update({ where: { id: keyId }, data: { expiresAt } });
    await auditKeyChange(tx, actor, "api_key.rotated", keyId, old.partner_id, {
      newKeyId: created.keyId,
      overlapHours,
    });
    return { ...created, oldKeyExpiresAt: expiresAt.toISOString() };
  });
}
