// Admin operations on sending partners, each audited. Secrets are sealed at rest and returned only once.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { checkCallbackUrl } from "@/lib/partners/callback-url";
import { generateWebhookSecret } from "@/lib/partners/webhook-secret";

async function partnerOrThrow(partnerId: string) {
  const partner = await db().partner.findUnique({ where: { id: partnerId } });
  if (!partner) throw new DomainError("not_found", `no partner ${partnerId}`);
  return partner;
}

function audit(actor: Actor, action: string, partnerId: string, details: Record<string, string | number | boolean | null> = {}) {
  return recordAuditEvent({ userId: actor.userId, actor: actor.label, action, clientAddress: actor.clientAddress, details: { partnerId, ...details } });
}

export async function setPartnerSuspended(partnerId: string, suspended: boolean, actor: Actor): Promise<void> {
  const partner = await partnerOrThrow(partnerId);
  if ((partner.suspendedAt !== null) === suspended) return;
  await db().partner.update({ where: { id: partnerId }, data: { suspendedAt: suspended ? new Date() : null } });
  await audit(actor, suspended ? "partner.suspended" : "partner.resumed", partnerId);
}

export async function updatePartnerCallbackUrl(partnerId: string, url: string, actor: Actor): Promise<string> {
  await partnerOrThrow(partnerId);
  const callbackUrl = await checkCallbackUrl(url);
  await db().partner.update({ where: { id: partnerId }, data: { callbackUrl, callbackGoneAt: null, callbackFailingSince: null } });
  await audit(actor, "partner.callback_url_changed", partnerId, { callbackUrl });
  return callbackUrl;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
const RESERVED_HEADERS = new Set(["content-type", "content-length", "host", "webhook-id", "webhook-timestamp", "webhook-signature", "transfer-encoding", "connection"]);

/** The partner's own credential that our callbacks carry (e.g. `Authorization: Bearer …`); null removes it. */
export async function setPartnerOutboundCredential(partnerId: string, header: { name: string; value: string } | null, actor: Actor): Promise<void> {
  await partnerOrThrow(partnerId);
  if (header) {
    if (!HEADER_NAME.test(header.name) || RESERVED_HEADERS.has(header.name.toLowerCase())) {
      throw new DomainError("invalid_input", "outbound header name must be a valid HTTP header name that our callbacks do not already set");
    }
    if (!header.value || /[\r\n]/.test(header.value) || header.value.length > 4096) {
      throw new DomainError("invalid_input", "outbound header value must be 1-4096 characters on one line");
    }
  }
  await db().partner.update({
    where: { id: partnerId },
    data: { outboundHeaderName: header?.name ?? null, outboundHeaderValue: header ? sealSecret(header.value) : null },
  });
  await audit(actor, header ? "partner.outbound_credential_set" : "partner.outbound_credential_removed", partnerId, { header: header?.name ?? null });
}

/** A new signing secret; callbacks are signed with both until the old one expires after the overlap. */
export async function rotateWebhookSecret(partnerId: string, overlapHours: number, actor: Actor): Promise<{ webhookSecret: string; previousExpiresAt: string }> {
  if (!Number.isFinite(overlapHours) || overlapHours < 0 || overlapHours > 24 * 30) {
    throw new DomainError("invalid_input", "overlap must be 0 to 720 hours");
  }
  const partner = await partnerOrThrow(partnerId);
  const webhookSecret = generateWebhookSecret();
  const previousExpiresAt = new Date(Date.now() + overlapHours * 3_600_000);
  await db().partner.update({
    where: { id: partnerId },
    data: { webhookSecret: sealSecret(webhookSecret), previousWebhookSecret: partner.webhookSecret, previousSecretExpiresAt: previousExpiresAt },
  });
  await audit(actor, "partner.webhook_secret_rotated", partnerId, { overlapHours });
  return { webhookSecret, previousExpiresAt: previousExpiresAt.toISOString() };
}
