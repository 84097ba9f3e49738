// Suspends a sending partner (its requests are refused) or lets it send again; audited.
import type { Actor } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import { auditPartnerChange, lockPartner } from "@/lib/partners/partner-guards";

export type SetPartnerSuspendedOptions = { partnerId: string; suspended: boolean; actor: Actor };

export async function setPartnerSuspended({ partnerId, suspended, actor }: SetPartnerSuspendedOptions): Promise<void> {
  await db().$transaction(async (tx) => {
    const partner = await lockPartner(tx, partnerId);
    if ((partner.suspendedAt !== null) === suspended) return;
    await tx.partner.update({ where: { id: partnerId }, data: { suspendedAt: suspended ? new Date() : null } });
    await auditPartnerChange(tx, actor, suspended ? "partner.suspended" : "partner.resumed", partnerId);
  });
}
