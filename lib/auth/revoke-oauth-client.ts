// Revokes an OAuth client and every token it was issued; audited in the same transaction.
import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockOAuthClient } from "@/lib/auth/sql";

export type RevokeOAuthClientOptions = { clientId: string; actor?: Actor };

/** Revokes the client and, with it, every token it was issued; audited in the same transaction. */
export async function revokeOAuthClient({
  clientId,
  actor = SYSTEM_ACTOR,
}: RevokeOAuthClientOptions): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const [client] = await inPrismaTx(tx, lockOAuthClient(clientId));
    if (!client) return false;
    await tx.oAuthClient.update({ where: { id: client.id }, data: { revokedAt: client.revoked_at ?? new Date() } });
    await tx.oAuthToken.deleteMany({ where: { clientId: client.id } });
    await recordAuditEvent(
      {
        actor,
        action: "oauth_client.revoked",
        details: { clientId, partnerId: client.partner_id },
      },
      tx,
    );
    return true;
  });
}
