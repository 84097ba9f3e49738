// The partner's own credential that our callbacks carry (e.g. `Authorization: Bearer …`): sealed at rest,
// bound to its partner, and audited by header name only.
import type { Actor } from "@/lib/audit/actor";
import { db } from "@/lib/db/prisma";
import { sealSecret, secretOwner } from "@/lib/crypto/secret-box";
import { DomainError } from "@/lib/errors";
import { isUsableOutboundHeaderName, MAX_OUTBOUND_HEADER_VALUE_LENGTH } from "@/lib/partners/credential-rules";
import { auditPartnerChange, lockPartner } from "@/lib/partners/partner-guards";

/** header null removes the credential. */
export type SetPartnerOutboundCredentialOptions = {
  partnerId: string;
  header: { name: string; value: string } | null;
  actor: Actor;
};

export async function setPartnerOutboundCredential({
  partnerId,
  header,
  actor,
}: SetPartnerOutboundCredentialOptions): Promise<void> {
  if (header) {
    if (!isUsableOutboundHeaderName(header.name)) {
      throw new DomainError(
        "invalid_input",
        "outbound header name must be a valid HTTP header name that our callbacks do not already set",
      );
    }
    if (!header.value || /[\r\n]/.test(header.value) || header.value.length > MAX_OUTBOUND_HEADER_VALUE_LENGTH) {
      throw new DomainError("invalid_input", "outbound header value must be 1-4096 characters on one line");
    }
  }
  await db().$transaction(async (tx) => {
    await lockPartner(tx, partnerId);
    await tx.partner.update({
      where: { id: partnerId },
      data: {
        outboundHeaderName: header?.name ?? null,
        outboundHeaderValue: header ? sealSecret(header.value, secretOwner.outboundHeader(partnerId)) : null,
      },
    });
    await auditPartnerChange(
      tx,
      actor,
      header ? "partner.outbound_credential_set" : "partner.outbound_credential_removed",
      partnerId,
      { header: header?.name ?? null },
    );
  });
}
