// Integration keys: the credential of an interface engine reading the feed of approved transfers. Like partner
// API keys (lib/auth/api-keys.ts): shown once, stored as SHA-256, identified to people by prefix and last
// four, revocable at once; creating and revoking are audited.
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Actor } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockIntegrationKey, touchIntegrationKey } from "@/lib/integration/sql";
import { generateSecret, hasValidChecksum, sha256Hex } from "@/lib/auth/secrets";
import { newId } from "@/lib/ids";

export const INTEGRATION_KEY_PREFIX = "rxi";
const LAST_USED_RESOLUTION_MS = 60_000;

export type CreatedIntegrationKey = {
  keyId: string;
  integrationKey: string;
  name: string;
  prefix: string;
  last4: string;
};
export type IntegrationKeySummary = {
  keyId: string;
  name: string;
  prefix: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

export async function createIntegrationKey(opts: { name: string; actor: Actor }): Promise<CreatedIntegrationKey> {
  const integrationKey = generateSecret(INTEGRATION_KEY_PREFIX);
  const row = await db().$transaction(async (tx) => {
    const created = await tx.integrationKey.create({
      data: {
        id: newId("ikey"),
        name: opts.name,
        hash: sha256Hex(integrationKey),
        prefix: integrationKey.slice(0, 8),
        last4: integrationKey.slice(-4),
        createdById: opts.actor.userId,
      },
    });
    await recordAuditEvent(
      {
        actor: opts.actor,
        action: "integration_key.created",
        details: { keyId: created.id, name: created.name },
      },
      tx,
    );
    return created;
  });
  return { keyId: row.id, integrationKey, name: row.name, prefix: row.prefix, last4: row.last4 };
}

/** Revokes at once; false when there is no such key. Revoking twice keeps the first time (and one audit record). */
export async function revokeIntegrationKey(opts: { keyId: string; actor: Actor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const [row] = await inPrismaTx(tx, lockIntegrationKey(opts.keyId));
    if (!row) return false;
    if (!row.revoked_at) {
      await tx.integrationKey.update({ where: { id: opts.keyId }, data: { revokedAt: new Date() } });
      await recordAuditEvent(
        {
          actor: opts.actor,
          action: "integration_key.revoked",
          details: { keyId: opts.keyId },
        },
        tx,
      );
    }
    return true;
  });
}

export async function listIntegrationKeys(): Promise<IntegrationKeySummary[]> {
  const rows = await db().integrationKey.findMany({ orderBy: { createdAt: "desc" } });
  return rows.map((r) => ({
    keyId: r.id,
    name: r.name,
    prefix: r.prefix,
    last4: r.last4,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
  }));
}

/** The key's id, or null for a malformed, unknown or revoked key. */
export async function findIntegrationKey(opts: { integrationKey: string }): Promise<string | null> {
  if (!hasValidChecksum(opts.integrationKey, INTEGRATION_KEY_PREFIX)) return null;
  const row = await db().integrationKey.findFirst({
    where: { hash: sha256Hex(opts.integrationKey), revokedAt: null },
    select: { id: true, lastUsedAt: true },
  });
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await touchIntegrationKey(row.id).execute();
  }
  return row.id;
}
