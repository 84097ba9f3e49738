// How an audit record's hash is made. The oldest records were chained with plain SHA-256, which anyone
// holding the database can recompute after an edit; new records are chained with HMAC-SHA256 under
// AUDIT_HMAC_KEY, which lives outside the database. The algorithm is stored per record ("hash_alg") and,
// For keyed records, is itself covered by the hash. Newer records go to one of several chains
// ("hmac-sha256-chains:<key id>"), and that hash also covers the chain's number.
import { createHash, createHmac, hkdfSync } from "node:crypto";
import { canonicalJson } from "@/lib/canonical-json";
import { env } from "@/lib/env";

export const GENESIS_HASH = "0".repeat(64);
/** The most chains there can be (AUDIT_CHAINS' upper bound): the heads are read from chains 0..this. */
export const AUDIT_CHAINS_MAX = 64;
export const PLAIN_ALG = "sha256";
const KEYED_PREFIX = "hmac-sha256:";
const CHAINS_PREFIX = "hmac-sha256-chains:";

export type HashedContent = {
  at: Date;
  userId: string | null;
  actor: string;
  action: string;
  transferId: string | null;
  clientAddress: string | null;
  details: unknown;
};

export type AuditKey = { id: string; key: Buffer; alg: string; chainsAlg: string };

let cached: { from: string; value: AuditKey } | undefined;

/** The configured audit key; its id (a fingerprint, not the key) names it in hash_alg and in errors. */
export function auditKey(): AuditKey {
  const secret = env().AUDIT_HMAC_KEY;
  if (!secret) {
    throw new Error(
      "AUDIT_HMAC_KEY is not set: the audit log cannot be written or verified (make one with `openssl rand -base64 32`)",
    );
  }
  if (cached?.from === secret) return cached.value;
  const key = Buffer.from(hkdfSync("sha256", secret, "rx-transfer", "audit-chain v1", 32));
  const id = createHmac("sha256", key).update("audit key id").digest("hex").slice(0, 16);
  cached = { from: secret, value: { id, key, alg: `${KEYED_PREFIX}${id}`, chainsAlg: `${CHAINS_PREFIX}${id}` } };
  return cached.value;
}

/** The key id of a keyed record's hash_alg, null for the plain legacy algorithm, undefined for anything else. */
export function keyIdOf(alg: string): string | null | undefined {
  if (alg === PLAIN_ALG) return null;
  for (const prefix of [KEYED_PREFIX, CHAINS_PREFIX]) {
    if (alg.startsWith(prefix) && alg.length > prefix.length) return alg.slice(prefix.length);
  }
  return undefined;
}

/** Whether hash_alg names the partitioned chains (chain 1..n) rather than the single chain 0. */
export function isChainsAlg(alg: string): boolean {
  return alg.startsWith(CHAINS_PREFIX);
}

function fields(e: HashedContent): unknown[] {
  // Canonical JSON: the details come back from jsonb with their keys in another order.
  return [e.at.toISOString(), e.userId, e.actor, e.action, e.transferId, e.clientAddress, e.details ?? null];
}

/** The legacy hash (records written before hash_alg existed): SHA-256 of the content and the previous hash. */
export function plainAuditHash(prevHash: string, e: HashedContent): string {
  return createHash("sha256")
    .update(canonicalJson([prevHash, ...fields(e)]))
    .digest("hex");
}

/** The keyed hash: covers the algorithm name (with the key id), the previous hash and the content. */
export function keyedAuditHash(key: AuditKey, prevHash: string, e: HashedContent): string {
  return createHmac("sha256", key.key)
    .update(canonicalJson([key.alg, prevHash, ...fields(e)]))
    .digest("hex");
}

/** The partitioned chains' hash: like the keyed one, and it also covers the chain the record links into. */
export function chainedAuditHash(key: AuditKey, chain: number, prevHash: string, e: HashedContent): string {
  return createHmac("sha256", key.key)
    .update(canonicalJson([key.chainsAlg, chain, prevHash, ...fields(e)]))
    .digest("hex");
}
