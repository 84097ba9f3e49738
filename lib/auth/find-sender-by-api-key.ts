// The sender behind an API key on /v1 (lib/auth/sender-auth.ts), noting when the key was last used.
import { API_KEY_PREFIX } from "@/lib/auth/api-keys";
import { hasValidChecksum, sha256Hex } from "@/lib/auth/secrets";
import { db } from "@/lib/db/prisma";

const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeySender = { partnerId: string; npis: string[]; keyId: string };

/** The partner an API key belongs to, or null for an unknown, revoked or expired key or a suspended partner. */
export async function findSenderByApiKey(apiKey: string): Promise<ApiKeySender | null> {
  if (!hasValidChecksum(apiKey, API_KEY_PREFIX)) return null;
  const rows = await db().$queryRaw<{ id: string; partner_id: string; npis: string[]; last_used_at: Date | null }[]>`
    SELECT k.id, k.partner_id, p.npis, k.last_used_at
      FROM api_keys k JOIN partners p ON p.id = k.partner_id
     WHERE k.hash = ${sha256Hex(apiKey)}
       AND k.revoked_at IS NULL
       AND (k.expires_at IS NULL OR k.expires_at > now())
       AND p.suspended_at IS NULL`;
  const row = rows[0];
  if (!row) return null;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    // At most one write a minute per key; the guard in SQL keeps concurrent instances from piling up.
    await db().$executeRaw`
      UPDATE api_keys SET last_used_at = now()
       WHERE id = ${row.id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
  }
  return { partnerId: row.partner_id, npis: row.npis, keyId: row.id };
}
