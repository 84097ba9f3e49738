// A new OAuth client (client credentials) for a partner; the secret is returned once, only its SHA-256 stored.
import type { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { CLIENT_SECRET_PREFIX } from "@/lib/auth/oauth";
import { generateSecret, sha256Hex } from "@/lib/auth/secrets";
import { db } from "@/lib/db/prisma";
import { newId, randomBase62 } from "@/lib/ids";

export type CreatedOAuthClient = { id: string; clientId: string; clientSecret: string };
export type CreateOAuthClientOptions = { partnerId: string; actor?: Actor; tx?: Prisma.TransactionClient };

/** With an actor, audited; with a transaction, inside it (the caller's change and this client commit together). */
export async function createOAuthClient({
  partnerId,
  actor,
  tx,
}: CreateOAuthClientOptions): Promise<CreatedOAuthClient> {
  const clientId = `cli_${randomBase62(24)}`;
  const clientSecret = generateSecret(CLIENT_SECRET_PREFIX);
  const create = async (t: Prisma.TransactionClient) => {
    const row = await t.oAuthClient.create({
      data: { id: newId("cli"), partnerId, clientId, secretHash: sha256Hex(clientSecret) },
    });
    if (actor) {
      await recordAuditEvent(
        {
          actor,
          action: "oauth_client.created",
          details: { clientId, partnerId },
        },
        t,
      );
    }
    return row;
  };
  const row = tx ? await create(tx) : await db().$transaction(create);
  return { id: row.id, clientId, clientSecret };
}
