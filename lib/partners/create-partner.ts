// A new sending pharmacy with everything it needs to call us: an API key, an OAuth client and the secret
// that signs our callbacks. Secrets are returned here once and never again.
import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { createApiKey } from "@/lib/auth/api-keys";
import { createOAuthClient } from "@/lib/auth/oauth";
import { sealSecret, secretOwner } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { callbackUrlForAudit } from "@/lib/partners/audit-url";
import { checkCallbackUrl } from "@/lib/partners/callback-url";
import { npiWarningFor } from "@/lib/partners/npi-policy";
import { generateWebhookSecret } from "@/lib/partners/webhook-secret";
import { isValidNpi } from "@/lib/transfers/identifiers";

export type CreatePartnerInput = { name: string; callbackUrl: string; npis?: string[] };

export type CreatedPartner = {
  partnerId: string;
  apiKey: string;
  keyId: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
};

export async function createPartner(input: CreatePartnerInput, actor: Actor = SYSTEM_ACTOR): Promise<CreatedPartner> {
  const name = input.name.trim();
  if (!name || name.length > 200) throw new DomainError("invalid_input", "partner name must be 1-200 characters");
  const npis = [...new Set(input.npis ?? [])];
  const badNpi = npis.find((npi) => !isValidNpi(npi));
  if (badNpi !== undefined) throw new DomainError("invalid_input", `NPI ${badNpi} is not a valid NPI (10 digits with a valid check digit)`);
  const callbackUrl = await checkCallbackUrl(input.callbackUrl);
  const webhookSecret = generateWebhookSecret();
  const partnerId = newId("prt");
  // The partner, its first key and client, and the audit record commit together or not at all.
  const { key, client } = await db().$transaction(async (tx) => {
    await tx.partner.create({
      data: { id: partnerId, name, npis, callbackUrl, webhookSecret: sealSecret(webhookSecret, secretOwner.webhookSecret(partnerId)) },
    });
    const key = await createApiKey(partnerId, { tx });
    const client = await createOAuthClient(partnerId, undefined, tx);
    await recordAuditEvent(
      {
        userId: actor.userId,
        actor: actor.label,
        action: "partner.created",
        clientAddress: actor.clientAddress,
        details: { partnerId, keyId: key.keyId, clientId: client.clientId, ...callbackUrlForAudit(callbackUrl) },
      },
      tx,
    );
    return { key, client };
  });
  return {
    partnerId,
    apiKey: key.apiKey,
    keyId: key.keyId,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    webhookSecret,
  };
}

/** What every partner listing shows first, whatever else it adds. */
export function partnerBasics(p: { id: string; name: string; npis: string[]; callbackUrl: string; suspendedAt: Date | null; createdAt: Date }) {
  return {
    partnerId: p.id,
    name: p.name,
    npis: p.npis,
    /** Set when the partner has no NPI allow-list (lib/partners/npi-policy.ts). */
    npiWarning: npiWarningFor(p.npis),
    callbackUrl: p.callbackUrl,
    suspended: p.suspendedAt !== null,
    createdAt: p.createdAt.toISOString(),
  };
}

export async function listPartners() {
  const partners = await db().partner.findMany({
    orderBy: { createdAt: "asc" },
    include: {
      apiKeys: { select: { id: true, prefix: true, last4: true, createdAt: true, lastUsedAt: true, expiresAt: true, revokedAt: true } },
      oauthClients: { select: { clientId: true, createdAt: true, revokedAt: true } },
    },
  });
  return partners.map((p) => ({
    ...partnerBasics(p),
    apiKeys: p.apiKeys.map((k) => ({
      keyId: k.id,
      display: `${k.prefix}…${k.last4}`,
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      expiresAt: k.expiresAt?.toISOString() ?? null,
      revoked: k.revokedAt !== null,
    })),
    oauthClients: p.oauthClients.map((c) => ({ clientId: c.clientId, createdAt: c.createdAt.toISOString(), revoked: c.revokedAt !== null })),
  }));
}

export async function assertPartnerExists(partnerId: string): Promise<void> {
  const found = await db().partner.findUnique({ where: { id: partnerId }, select: { id: true } });
  if (!found) throw new DomainError("not_found", `no partner ${partnerId}`);
}
