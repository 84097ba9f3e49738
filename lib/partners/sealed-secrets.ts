// The partners' stored secrets as a whole: checked at start (a process with another DATA_ENCRYPTION_KEY
// than the one they were sealed under fails at once, saying so, instead of at the first callback), and
// re-sealed under the current key by `npm run cli -- secrets rotate-key`. The users' TOTP secrets are
// included (lib/auth/two-factor/sealed-totp-secrets.ts).
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { checkTotpSecrets, resealTotpSecrets } from "@/lib/auth/two-factor/sealed-totp-secrets";
import {
  currentKeyId,
  isSealedUnderCurrentKey,
  openSecret,
  sealSecret,
  secretOwner,
  SecretKeyError,
} from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/prisma";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockAllPartners } from "@/lib/partners/sql";

type SealedColumn = "webhookSecret" | "previousWebhookSecret" | "outboundHeaderValue";
const COLUMNS: { column: SealedColumn; owner: (partnerId: string) => string }[] = [
  // The previous webhook secret is the current one moved aside at rotation: same owner binding.
  { column: "webhookSecret", owner: secretOwner.webhookSecret },
  { column: "previousWebhookSecret", owner: secretOwner.webhookSecret },
  { column: "outboundHeaderValue", owner: secretOwner.outboundHeader },
];

const SELECT = { id: true, webhookSecret: true, previousWebhookSecret: true, outboundHeaderValue: true } as const;

export type StoredSecretsCheck = { secrets: number; underCurrentKey: number };

/** Opens every stored secret; throws SecretKeyError (naming the likely cause) at the first that does not open. */
export async function checkStoredSecrets(): Promise<StoredSecretsCheck> {
  const partners = await db().partner.findMany({ select: SELECT });
  let secrets = 0;
  let underCurrentKey = 0;
  for (const p of partners) {
    for (const { column, owner } of COLUMNS) {
      const sealed = p[column];
      if (sealed === null) continue;
      openSecret(sealed, owner(p.id));
      secrets++;
      if (isSealedUnderCurrentKey(sealed)) underCurrentKey++;
    }
  }
  const totp = await checkTotpSecrets();
  return { secrets: secrets + totp.secrets, underCurrentKey: underCurrentKey + totp.underCurrentKey };
}

export type RotationReport = {
  keyId: string;
  partners: number;
  secrets: number;
  resealed: number;
  alreadyCurrent: number;
};

/**
 * Re-seals every stored secret under the current DATA_ENCRYPTION_KEY (format v2, bound to its owner), in
 * one transaction with its audit record: either every secret is re-sealed or none is. The partners' rows
 * are locked meanwhile, so no secret set concurrently is lost.
 */
export async function rotateStoredSecrets(actor: Actor): Promise<RotationReport> {
  const keyId = currentKeyId();
  return db().$transaction(
    async (tx) => {
      await inPrismaTx(tx, lockAllPartners());
      const partners = await tx.partner.findMany({ select: SELECT, orderBy: { id: "asc" } });
      let secrets = 0;
      let resealed = 0;
      for (const p of partners) {
        const data: Partial<Record<SealedColumn, string>> = {};
        for (const { column, owner } of COLUMNS) {
          const sealed = p[column];
          if (sealed === null) continue;
          secrets++;
          if (isSealedUnderCurrentKey(sealed)) {
            openSecret(sealed, owner(p.id)); // still proves it opens
            continue;
          }
          data[column] = sealSecret(openSecret(sealed, owner(p.id)), owner(p.id));
          resealed++;
        }
        if (Object.keys(data).length > 0) await tx.partner.update({ where: { id: p.id }, data });
      }
      // The users' TOTP secrets too (lib/auth/two-factor/sealed-totp-secrets.ts).
      const totp = await resealTotpSecrets(tx);
      secrets += totp.secrets;
      resealed += totp.resealed;
      const report = { keyId, partners: partners.length, secrets, resealed, alreadyCurrent: secrets - resealed };
      await recordAuditEvent(
        {
          actor,
          action: "secrets.rotated",
          details: report,
        },
        tx,
      );
      return report;
    },
    { timeout: 120_000 },
  );
}

export { SecretKeyError };
