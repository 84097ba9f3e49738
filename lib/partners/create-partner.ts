// A new sending pharmacy with everything it needs to call us: an API key, an OAuth client and the secret
// that signs our callbacks. Secrets are returned here once and never again.
import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { createApiKey } from "@/lib/auth/create-api-key";
import { createOAuthClient } from "@/lib/auth/create-oauth-client";
import { sealSecret, secretOwner } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { callbackUrlForAudit } from "@/lib/partners/audit-url";
import { checkCallbackUrl } from "@/lib/partners/callback-url";
import { generateWebhookSecret } from "@/lib/partners/webhook-secret";
import { isValidNpi } from "@/lib/interface";

/** Without an actor, the system's (the demo seed, tests). */
export type CreatePartnerOptions = { name: string; callbackUrl: string; npis?: string[]; actor?: Actor };

export type CreatedPartner = {
  partnerId: string;
  apiKey: string;
  keyId: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
};

export async function createPartner({ actor = SYSTEM_ACTOR, ...input }: CreatePartnerOptions): Promise<CreatedPartner> {
  const name = input.name.trim();
  if (!name || name.length > 200) throw new DomainError("invalid_input", "partner name must be 1-200 characters");
  const npis = [...new Set(input.npis ?? [])];
  const badNpi = npis.find((npi) => !isValidNpi(npi));
  if (badNpi !== undefined)
    throw new DomainError("invalid_input", `NPI ${badNpi} is not a valid NPI (10 digits with a valid check digit)`);
  const callbackUrl = await checkCallbackUrl(input.callbackUrl);
  const webhookSecret = generateWebhookSecret();
  const partnerId = newId("prt");
  // The partner, its first key and client, and the audit record commit together or not at all.
  const { key, client } = await db().$transaction(async (tx) => {
    await tx.partner.create({
      data: {
        id: partnerId,
        name,
        npis,
        callbackUrl,
        webhookSecret: sealSecret(webhookSecret, secretOwner.webhookSecret(partnerId)),
      },
    });
    const key = await createApiKey({ partnerId, tx });
    const client = await createOAuthClient({ partnerId, tx });
    await recordAuditEvent(
      {
        actor,
        action: "partner.created",
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
