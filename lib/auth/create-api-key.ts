// A new API key for a partner, returned once (only its SHA-256 is stored).
import type { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/lib/audit/actor";
import { API_KEY_PREFIX, auditKeyChange, type CreatedApiKey } from "@/lib/auth/api-keys";
import { generateSecret, sha256Hex } from "@/lib/auth/secrets";
import { db } from "@/lib/db/prisma";
import { newId } from "@/lib/ids";

type Tx = Prisma.TransactionClient;

/** expiresAt absent: the key does not expire. */
export type CreateApiKeyOptions = { partnerId: string; expiresAt?: Date; actor?: Actor; tx?: Tx };

/** With an actor, audited; with a transaction, inside it (the caller's change and this key commit together). */
export async function createApiKey({ partnerId, expiresAt, actor, tx }: CreateApiKeyOptions): Promise<CreatedApiKey> {
  const apiKey = generateSecret(API_KEY_PREFIX);
  const create = async (t: Tx) => {
    const row = await t.apiKey.create({
      data: {
        id: newId("key"),
        partnerId,
        hash: sha256Hex(apiKey),
        prefix: apiKey.slice(0, 8),
        last4: apiKey.slice(-4),
        expiresAt: expiresAt ?? null,
      },
    });
    if (actor) await auditKeyChange(t, actor, "api_key.created", row.id, partnerId);
    return row;
  };
  const row = tx ? await create(tx) : await db().$transaction(create);
  return { keyId: row.id, apiKey, prefix: row.prefix, last4: row.last4 };
}
