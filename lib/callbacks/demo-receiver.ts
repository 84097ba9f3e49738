// The demo partner's callback endpoint for `npm run dev` (its callback URL is this server's
// /demo/callbacks): it checks the signature with the secret of the partner the callback was sent for, as a
// sending pharmacy would, and logs what arrived (ids and the outcome, no patient data).
import { openSecret, secretOwner } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/prisma";
import { log } from "@/lib/log";
import { verifyWebhook } from "@/lib/callbacks/verify-webhook";

export type DemoReceipt = { accepted: true } | { accepted: false; reason: string };

export async function receiveDemoCallback(input: { headers: Headers; body: string }): Promise<DemoReceipt> {
  const webhookId = input.headers.get("webhook-id");
  const callback =
    webhookId && webhookId.length <= 64
      ? await db().callback.findUnique({
          where: { id: webhookId },
          select: {
            transferId: true,
            partner: {
              select: { id: true, webhookSecret: true, previousWebhookSecret: true, previousSecretExpiresAt: true },
            },
          },
        })
      : null;
  if (!callback) {
    log("warn", "demo callback refused", { webhookId, reason: "unknown webhook-id" });
    return { accepted: false, reason: "unknown webhook-id" };
  }
  const { partner } = callback;
  const secrets = [openSecret(partner.webhookSecret, secretOwner.webhookSecret(partner.id))];
  if (
    partner.previousWebhookSecret &&
    partner.previousSecretExpiresAt &&
    partner.previousSecretExpiresAt > new Date()
  ) {
    secrets.push(openSecret(partner.previousWebhookSecret, secretOwner.webhookSecret(partner.id)));
  }
  const verdict = verifyWebhook({
    id: webhookId,
    timestamp: input.headers.get("webhook-timestamp"),
    signature: input.headers.get("webhook-signature"),
    body: input.body,
    secrets,
  });
  if (!verdict.ok) {
    log("warn", "demo callback refused", { webhookId, transferId: callback.transferId, reason: verdict.reason });
    return { accepted: false, reason: verdict.reason };
  }
  let responseType: unknown = null;
  try {
    responseType = (JSON.parse(input.body) as { metadata?: { responseType?: unknown } }).metadata?.responseType ?? null;
  } catch {
    // logged as null
  }
  log("info", "demo callback received", {
    webhookId,
    transferId: callback.transferId,
    responseType,
    signature: "valid",
  });
  return { accepted: true };
}
