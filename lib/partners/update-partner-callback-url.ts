// Moves a partner's callbacks to a new URL (checked against the SSRF rules first) and clears its endpoint's
// failing and gone flags; audited without the URL's query, which may hold a token.
import type { Actor } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import { callbackUrlForAudit } from "@/lib/partners/audit-url";
import { checkCallbackUrl } from "@/lib/partners/callback-url";
import { auditPartnerChange, lockPartner } from "@/lib/partners/partner-guards";

export type UpdatePartnerCallbackUrlOptions = { partnerId: string; url: string; actor: Actor };

export async function updatePartnerCallbackUrl({
  partnerId,
  url,
  actor,
}: UpdatePartnerCallbackUrlOptions): Promise<string> {
  const callbackUrl = await checkCallbackUrl(url); // DNS: outside the transaction
  await db().$transaction(async (tx) => {
    await lockPartner(tx, partnerId);
    await tx.partner.update({
      where: { id: partnerId },
      data: { callbackUrl, callbackGoneAt: null, callbackFailingSince: null },
    });
    await auditPartnerChange(tx, actor, "partner.callback_url_changed", partnerId, callbackUrlForAudit(callbackUrl));
  });
  return callbackUrl;
}
