// Partner API keys: shown once at creation, stored as SHA-256, identified to people by prefix and last four.
import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { generateSecret, hasValidChecksum, sha256Hex } from "@/lib/auth/secrets";
import { isOverlapWithin, MAX_KEY_OVERLAP_HOURS } from "@/lib/partners/credential-rules";

export const API_KEY_PREFIX = "rxk";
const LAST_USED_RESOLUTION_MS = 60_000;
type Tx = Prisma.TransactionClient;

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(`${API_KEY_PREFIX}_`);
}

export type CreatedApiKey = { keyId: string; apiKey: string; prefix: string; last4: string };

/** With an actor, audited; with a transaction, inside it (the caller's change and this key commit together). */
export async function createApiKey(partnerId: string, opts: { expiresAt?: Date; actor?: Actor; tx?: Tx } = {}): Promise<CreatedApiKey> {
  const apiKey = generateSecret(API_KEY_PREFIX);
  const create = async (tx: Tx) => {
    const row = await tx.apiKey.create({
      data: {
        id: newId("key"),
        partnerId,
        hash: sha256Hex(apiKey),
        prefix: apiKey.slice(0, 8),
        last4: apiKey.slice(-4),
        expiresAt: opts.expiresAt ?? null,
      },
    });
    if (opts.actor) await auditKey(tx, opts.actor, "api_key.created", row.id, partnerId);
    return row;
  };
  const row = opts.tx ? await create(opts.tx) : await db().$transaction(create);
  return { keyId: row.id, apiKey, prefix: row.prefix, last4: row.last4 };
}

function auditKey(tx: Tx, actor: Actor, action: string, keyId: string, partnerId: string, details: Record<string, string | number> = {}) {
  return recordAuditEvent({ userId: actor.userId, actor: actor.label, action, clientAddress: actor.clientAddress, details: { keyId, partnerId, ...details } }, tx);
}

/** Revokes at once; returns false when there is no such key. Revoking twice keeps the first time. */
export async function revokeApiKey(keyId: string, actor: Actor = SYSTEM_ACTOR): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const [existing] = await tx.$queryRaw<{ partner_id: string; revoked_at: Date | null }[]>`
      SELECT partner_id, revoked_at FROM api_keys WHERE id = ${keyId} FOR UPDATE`;
    if (!existing) return false;
    if (!existing.revoked_at) {
      await tx.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
      await auditKey(tx, actor, "api_key.revoked", keyId, existing.partner_id);
    }
    return true;
  });
}

export type ApiKeySender = { partnerId: string; npis: string[]; keyId: string };

/** What makes a key usable, over `api_keys k JOIN partners p`: the one definition both lookups use. */
const KEY_IS_VALID = Prisma.sql`k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now()) AND p.suspended_at IS NULL`;

/** The partner an API key belongs to, or null for an unknown, revoked or expired key or a suspended partner. */
export async function findSenderByApiKey(apiKey: string): Promise<ApiKeySender | null> {
  if (!hasValidChecksum(apiKey, API_KEY_PREFIX)) return null;
  const hash = sha256Hex(apiKey);
  const rows = await db().$queryRaw<{ id: string; partner_id: string; npis: string[]; last_used_at: Date | null }[]>`
    SELECT k.id, k.partner_id, p.npis, k.last_used_at
      FROM api_keys k JOIN partners p ON p.id = k.partner_id
     WHERE k.hash = ${hash} AND ${KEY_IS_VALID}`;
  const row = rows[0];
  if (!row) {
    knownKeys.delete(hash);
    return null;
  }
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    // At most one write a minute per key; the guard in SQL keeps concurrent instances from piling up.
    await db().$executeRaw`
      UPDATE api_keys SET last_used_at = now()
       WHERE id = ${row.id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
  }
  remember(hash, { partnerId: row.partner_id, npis: row.npis, keyId: row.id, hash });
  return { partnerId: row.partner_id, npis: row.npis, keyId: row.id };
}

/**
 * A key this process has seen valid, by hash. Not a credential cache: nothing is accepted on its strength.
 * It only lets the intake fold the key check into its insert (validApiKeySql), which checks the key again in
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

/** One row (the key's id) while the key is exactly as it was found: still valid, same partner, same NPIs. */
export function validApiKeySql(key: KnownApiKey): Prisma.Sql {
  return Prisma.sql`
    SELECT k.id FROM api_keys k JOIN partners p ON p.id = k.partner_id
     WHERE k.hash = ${key.hash} AND k.id = ${key.keyId} AND k.partner_id = ${key.partnerId}
       AND p.npis = ${key.npis}::text[] AND ${KEY_IS_VALID}`;
}

/** A new key for the same partner; the old one keeps working until the overlap ends, then expires. */
export async function rotateApiKey(keyId: string, overlapHours: number, actor: Actor): Promise<CreatedApiKey & { oldKeyExpiresAt: string }> {
  if (!isOverlapWithin(overlapHours, MAX_KEY_OVERLAP_HOURS)) {
    throw new DomainError("invalid_input", `overlap must be 0 to ${MAX_KEY_OVERLAP_HOURS} hours`);
  }
  return db().$transaction(async (tx) => {
    const [old] = await tx.$queryRaw<{ partner_id: string; revoked_at: Date | null; expires_at: Date | null }[]>`
      SELECT partner_id, revoked_at, expires_at FROM api_keys WHERE id = ${keyId} FOR UPDATE`;
    if (!old || old.revoked_at) throw new DomainError("not_found", `no active API key ${keyId}`);
    const oldKeyExpiresAt = new Date(Date.now() + overlapHours * 3_600_000);
    const created = await createApiKey(old.partner_id, { tx });
    const expiresAt = old.expires_at && old.expires_at < oldKeyExpiresAt ? old.expires_at : oldKeyExpiresAt;
    await tx.apiKey.update({ where: { id: keyId }, data: { expiresAt } });
    await auditKey(tx, actor, "api_key.rotated", keyId, old.partner_id, { newKeyId: created.keyId, overlapHours });
    return { ...created, oldKeyExpiresAt: expiresAt.toISOString() };
  });
}
