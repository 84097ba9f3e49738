// Admin operations on sending partners, each audited in the same transaction as the change. Secrets are
// sealed at rest (bound to their partner) and returned only once.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Prisma } from "@/generated/prisma/client";
import { sealSecret, secretOwner } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { callbackUrlForAudit } from "@/lib/partners/audit-url";
import { checkCallbackUrl } from "@/lib/partners/callback-url";
import { generateWebhookSecret } from "@/lib/partners/webhook-secret";
import { isOverlapWithin, isUsableOutboundHeaderName, MAX_OUTBOUND_HEADER_VALUE_LENGTH, MAX_SECRET_OVERLAP_HOURS } from "@/lib/partners/credential-rules";

type Tx = Prisma.TransactionClient;

/** The partner, locked for the change (so that the change and its audit record describe the same row). */
async function lockPartner(tx: Tx, partnerId: string) {
  const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM partners WHERE id = ${partnerId} FOR UPDATE`;
  if (!locked) throw new DomainError("not_found", `no partner ${partnerId}`);
  return tx.partner.findUniqueOrThrow({ where: { id: partnerId } });
}

/** Each change and its audit record commit together, or neither does. */
function audit(tx: Tx, actor: Actor, action: string, partnerId: string, details: Record<string, string | number | boolean | null> = {}) {
  return recordAuditEvent({ userId: actor.userId, actor: actor.label, action, clientAddress: actor.clientAddress, details: { partnerId, ...details } }, tx);
}

export async function setPartnerSuspended(partnerId: string, suspended: boolean, actor: Actor): Promise<void> {
  await db().$transaction(async (tx) => {
    const partner = await lockPartner(tx, partnerId);
    if ((partner.suspendedAt !== null) === suspended) return;
    await tx.partner.update({ where: { id: partnerId }, data: { suspendedAt: suspended ? new Date() : null } });
    await audit(tx, actor, suspended ? "partner.suspended" : "partner.resumed", partnerId);
  });
}

export async function updatePartnerCallbackUrl(partnerId: string, url: string, actor: Actor): Promise<string> {
  const callbackUrl = await checkCallbackUrl(url); // DNS: outside the transaction
  await db().$transaction(async (tx) => {
    await lockPartner(tx, partnerId);
    await tx.partner.update({ where: { id: partnerId }, data: { callbackUrl, callbackGoneAt: null, callbackFailingSince: null } });
    await audit(tx, actor, "partner.callback_url_changed", partnerId, callbackUrlForAudit(callbackUrl));
  });
  return callbackUrl;
}


/** The partner's own credential that our callbacks carry (e.g. `Authorization: Bearer …`); null removes it. */
export async function setPartnerOutboundCredential(partnerId: string, header: { name: string; value: string } | null, actor: Actor): Promise<void> {
  if (header) {
    if (!isUsableOutboundHeaderName(header.name)) {
      throw new DomainError("invalid_input", "outbound header name must be a valid HTTP header name that our callbacks do not already set");
    }
    if (!header.value || /[\r\n]/.test(header.value) || header.value.length > MAX_OUTBOUND_HEADER_VALUE_LENGTH) {
      throw new DomainError("invalid_input", "outbound header value must be 1-4096 characters on one line");
    }
  }
  await db().$transaction(async (tx) => {
    await lockPartner(tx, partnerId);
    await tx.partner.update({
      where: { id: partnerId },
      data: { outboundHeaderName: header?.name ?? null, outboundHeaderValue: header ? sealSecret(header.value, secretOwner.outboundHeader(partnerId)) : null },
    });
    await audit(tx, actor, header ? "partner.outbound_credential_set" : "partner.outbound_credential_removed", partnerId, { header: header?.name ?? null });
  });
}

/** A new signing secret; callbacks are signed with both until the old one expires after the overlap. */
export async function rotateWebhookSecret(partnerId: string, overlapHours: number, actor: Actor): Promise<{ webhookSecret: string; previousExpiresAt: string }> {
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
    await audit(tx, actor, "partner.webhook_secret_rotated", partnerId, { overlapHours });
  });
  return { webhookSecret, previousExpiresAt: previousExpiresAt.toISOString() };
}
