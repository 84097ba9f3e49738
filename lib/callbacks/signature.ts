// Standard Webhooks 1.0 signatures: `v1,<base64 HMAC-SHA256("<webhook-id>.<webhook-timestamp>.<body>")>`,
// keyed with the bytes of the partner's secret (the base64 after `whsec_`). While a secret is being
// rotated the header carries one signature per secret, separated by a space.
import { createHmac } from "node:crypto";

const SECRET_PREFIX = "whsec_";

/** The HMAC key of a `whsec_…` secret: the base64-decoded part after the prefix. */
export function webhookSecretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error("webhook secret must start with whsec_");
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  if (key.length < 24) throw new Error("webhook secret is too short (at least 24 bytes of key)");
  return key;
}

export type SignInput = {
  /** The callback's id (`msg_…`), the same on every attempt. */
  id: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** The exact bytes sent as the body. */
  body: string;
  /** The current secret first, then any secret still valid during a rotation. */
  secrets: readonly string[];
};

/** The `webhook-signature` header value: one `v1,<signature>` per secret, space-separated. */
export function signWebhook(input: SignInput): string {
  if (input.secrets.length === 0) throw new Error("at least one webhook secret is needed to sign");
  const content = `${input.id}.${input.timestamp}.${input.body}`;
  return input.secrets
    .map((secret) => `v1,${createHmac("sha256", webhookSecretKey(secret)).update(content, "utf8").digest("base64")}`)
    .join(" ");
}

/** The Standard Webhooks headers of one attempt. */
export function webhookHeaders(
  input: SignInput,
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  return {
    "webhook-id": input.id,
    "webhook-timestamp": String(input.timestamp),
    "webhook-signature": signWebhook(input),
  };
}
