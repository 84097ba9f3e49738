// Random credentials and their stored form. High-entropy secrets are stored as SHA-256: a slow hash
// would only burn CPU on every request without adding safety (API keys are checked on every request).
import { createHash, timingSafeEqual } from "node:crypto";
import { randomBase62 } from "@/lib/ids";

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

const CHECKSUM_LENGTH = 4;

function checksum(body: string): string {
  // Four base62 characters from the hash: lets us refuse a mistyped key without a database round trip.
  const digest = createHash("sha256").update(body).digest();
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) out += alphabet[digest[i]! % 62];
  return out;
}

/** `<prefix>_<32 random base62 chars (~190 bits)><4-char checksum>` */
export function generateSecret(prefix: string): string {
  const body = `${prefix}_${randomBase62(32)}`;
  return body + checksum(body);
}

export function hasValidChecksum(secret: string, prefix: string): boolean {
  const pattern = new RegExp(`^${prefix}_[0-9A-Za-z]{${32 + CHECKSUM_LENGTH}}$`);
  if (!pattern.test(secret)) return false;
  const body = secret.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === secret.slice(-CHECKSUM_LENGTH);
}
