// Checking a Standard Webhooks signature as a receiver does: what the demo receiver (app/demo/callbacks)
// runs, and what the docs page shows senders. Constant-time comparison; a timestamp more than 5 minutes
// from our clock is refused (replay protection).
import { createHmac, timingSafeEqual } from "node:crypto";
import { webhookSecretKey } from "@/lib/callbacks/signature";

export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export type VerifyResult = { ok: true } | { ok: false; reason: string };

export function verifyWebhook(input: {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
  body: string;
  secrets: readonly string[];
  now?: Date;
}): VerifyResult {
  const { id, timestamp, signature } = input;
  if (!id || !timestamp || !signature)
    return { ok: false, reason: "missing webhook-id, webhook-timestamp or webhook-signature" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "webhook-timestamp is not unix seconds" };
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS)
    return { ok: false, reason: "webhook-timestamp is too far from now" };
  const offered = signature
    .split(" ")
    .filter((part) => part.startsWith("v1,"))
    .map((part) => Buffer.from(part.slice(3), "base64"));
  for (const secret of input.secrets) {
    const expected = createHmac("sha256", webhookSecretKey(secret))
      .update(`${id}.${timestamp}.${input.body}`, "utf8")
      .digest();
    if (offered.some((sig) => sig.length === expected.length && timingSafeEqual(sig, expected))) return { ok: true };
  }
  return { ok: false, reason: "no signature matches" };
}
