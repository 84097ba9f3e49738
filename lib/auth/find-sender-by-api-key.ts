// The sender behind an API key on /v1 (lib/auth/sender-auth.ts), noting when the key was last used; and the
// keys this process has seen valid, so that the intake can check a key inside its insert (one round trip).
import { API_KEY_PREFIX, looksLikeApiKey } from "@/lib/auth/api-keys";
import { hasValidChecksum, sha256Hex } from "@/lib/auth/secrets";
import { selectValidApiKey, touchApiKey } from "@/lib/auth/sql";

const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeySender = { partnerId: string; npis: string[]; keyId: string };

/** The partner an API key belongs to, or null for an unknown, revoked or expired key or a suspended partner. */
export async function findSenderByApiKey(apiKey: string): Promise<ApiKeySender | null> {
  if (!hasValidChecksum(apiKey, API_KEY_PREFIX)) return null;
  const hash = sha256Hex(apiKey);
  const rows = await selectValidApiKey(hash).execute();
  const row = rows[0];
  if (!row) {
    knownKeys.delete(hash);
    return null;
  }
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    // At most one write a minute per key; the guard in SQL keeps concurrent instances from piling up.
    await touchApiKey(row.id).execute();
  }
  remember(hash, { partnerId: row.partner_id, npis: row.npis, keyId: row.id, hash });
  return { partnerId: row.partner_id, npis: row.npis, keyId: row.id };
}

/**
 * A key this process has seen valid, by hash. Not a credential cache: nothing is accepted on its strength.
 * It only lets the intake fold the key check into its insert (withValidKey in lib/transfers/queries/intake.ts, over selectValidApiKey), which checks the key again in
 * the same statement, so a revoked, expired or suspended key is refused on its very next request.
 */
export type KnownApiKey = ApiKeySender & { hash: string };
const MAX_KNOWN_KEYS = 10_000;
const knownKeys = new Map<string, KnownApiKey>();

function remember(hash: string, key: KnownApiKey): void {
  if (knownKeys.size >= MAX_KNOWN_KEYS && !knownKeys.has(hash)) knownKeys.clear();
  knownKeys.set(hash, key);
}

/** The key as last found valid, or null (never seen, or refused since): the caller then looks it up. */
export function knownApiKey(apiKey: string): KnownApiKey | null {
  if (!looksLikeApiKey(apiKey) || !hasValidChecksum(apiKey, API_KEY_PREFIX)) return null;
  return knownKeys.get(sha256Hex(apiKey)) ?? null;
}
