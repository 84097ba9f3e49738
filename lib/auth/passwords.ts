// Dashboard passwords: Argon2id (@node-rs/argon2, prebuilt native binaries shipped in the npm package) at
// OWASP's minimum for Argon2id: m=19456 KiB, t=2, p=1. The PHC string keeps the parameters with each hash.
// Hashes of the earlier scheme (`scrypt$N$r$p$salt$key`, node:crypto) still verify; needsRehash tells the
// sign-in to replace such a hash (or one with weaker parameters) while the password is at hand.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { MIN_PASSWORD_LENGTH } from "@/lib/users/user-inputs";

/** OWASP Password Storage Cheat Sheet, Argon2id option 2 (the one it lists first for 19 MiB). */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;
/** @node-rs/argon2's Algorithm.Argon2id (a `const enum` in its types, which isolated modules cannot import). */
const ARGON2ID = 2;
const ARGON2_PREFIX = `$argon2id$v=19$m=${ARGON2_PARAMS.memoryCost},t=${ARGON2_PARAMS.timeCost},p=${ARGON2_PARAMS.parallelism}$`;

export { MIN_PASSWORD_LENGTH };

/** `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` */
export async function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, { ...ARGON2_PARAMS, algorithm: ARGON2ID });
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith("$argon2id$")) {
    try {
      return await argon2Verify(stored, password);
    } catch {
      return false; // a malformed stored hash
    }
  }
  if (stored.startsWith("scrypt$")) return verifyScrypt(password, stored);
  return false;
}

/** True for any stored hash that is not Argon2id at today's parameters. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(ARGON2_PREFIX);
}

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, { ...opts, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** The earlier scheme, `scrypt$N$r$p$<salt b64>$<key b64>`, verified only (never written any more). */
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, saltB64, keyB64] = stored.split("$");
  if (!n || !r || !p || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, "base64");
  if (expected.length === 0) return false;
  try {
    const key = await scrypt(password, Buffer.from(saltB64, "base64"), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    return timingSafeEqual(key, expected);
  } catch {
    return false; // parameters scrypt refuses
  }
}

/** An scrypt hash as the service wrote them before Argon2id (for tests of the upgrade path). */
export async function legacyScryptHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return ["scrypt", 16384, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
}
