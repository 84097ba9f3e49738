// Recovery codes: ten per enrolment, each 80 random bits written as 16 characters of Crockford's base32
// in four groups (`7K3M-Q9TX-…`), shown once. Only their SHA-256 is stored: with 80 bits of randomness a
// fast hash is right (as for API keys); a slow one would only burn CPU on every attempt.
import { createHash, randomBytes } from "node:crypto";

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford: no I, L, O, U
const CODE_LENGTH = 16;

export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(10); // 80 bits = 16 × 5 bits
    let bits = 0n;
    for (const b of bytes) bits = (bits << 8n) | BigInt(b);
    let text = "";
    for (let i = CODE_LENGTH - 1; i >= 0; i--) text += ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)];
    return text.match(/.{4}/g)!.join("-");
  });
}

/**
 * What a person typed, as stored: dashes and spaces dropped, upper case, and Crockford's look-alikes read
 * as the digits (O→0, I/L→1). null when it cannot be a recovery code.
 */
export function normalizeRecoveryCode(input: string): string | null {
  const text = input.replace(/[\s-]/g, "").toUpperCase().replace(/O/g, "0").replace(/[IL]/g, "1");
  if (text.length !== CODE_LENGTH) return null;
  for (const c of text) if (!ALPHABET.includes(c)) return null;
  return text;
}

export function hashRecoveryCode(normalized: string): string {
  return createHash("sha256").update(`rx-recovery:${normalized}`).digest("hex");
}

/** A recovery code is the only input of that length with letters in it; six digits are a TOTP code. */
export function looksLikeRecoveryCode(input: string): boolean {
  return input.replace(/[\s-]/g, "").length > 8;
}
