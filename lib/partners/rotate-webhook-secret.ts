// A new signing secret for a partner's callbacks, returned once; callbacks are signed with both the new and
// the old one until the old one expires after the overlap. Sealed at rest, audited.
import type { Actor } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import { sealSecret, secretOwner } from "@/lib/crypto/secret-box";
import { DomainError } from "@/lib/errors";
import { isOverlapWithin, MAX_SECRET_OVERLAP_HOURS } from "@/lib/partners/credential-rules";
import { generateWebhookSecret } from "@/lib/partners/webhook-secret";
import { auditPartnerChange, lockPartner } from "@/lib/partners/partner-guards";

export type RotateWebhookSecretOptions = { partnerId: string; overlapHours: number; actor: Actor };

export async function rotateWebhookSecret({
  partnerId,
  overlapHours,
  actor,
}: RotateWebhookSecretOptions): Promise<{ webhookSecret: string; previousExpiresAt: string }> {
  if (!isOverlapWithin(overlapHours, MAX_SECRET_OVERLAP_HOURS)) {
    throw new DomainError("invalid_input", `overlap must be 0 to ${MAX_SECRET_OVERLAP_HOURS} hours`);
  }
  const webhookSecret = generateWebhookSecret();
  const previousExpiresAt = new Date(Date.now() + overlapHours * 3_600_000);
  await db().$transaction(async (tx) => {
    const partner = await lockPartner(tx, partnerId);
    // The current secret moves aside as it is: both columns are bound to the same owner (webhook secret).
    await tx.partner.update({
      where: { id: partnerId },
      data: {
        webhookSecret: sealSecret(webhookSecret, secretOwner.webhookSecret(partnerId)),
        previousWebhookSecret: partner.webhookSecret,
        previousSecretExpiresAt: previousExpiresAt,
      },
    });
    await auditPartnerChange(tx, actor, "partner.webhook_secret_rotated", partnerId, { overlapHours });
  });
  return { webhookSecret, previousExpiresAt: previousExpiresAt.toISOString() };
}
