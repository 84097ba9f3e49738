// Secrets we must read back (webhook signing secrets, partners' outbound credentials) are stored encrypted
// with AES-256-GCM under a key derived (HKDF) from DATA_ENCRYPTION_KEY, which lives outside the database:
// a dump alone does not reveal them. Each value is bound to its owner (associated data such as
// `partner:prt_…:webhook-secret`), so a sealed value copied into another partner's row does not open.
//
//   enc:v2:<key id>:<iv>:<tag>:<ciphertext>   (base64 parts; key id: a fingerprint of the key, not the key)
//   Enc:v1:<iv>:<tag>:<ciphertext>            (the first format: SHA-256 of DATA_ENCRYPTION_KEY, or HKDF of
//                                              AUTH_SECRET when none was set; no owner binding; read only)
//
// DATA_ENCRYPTION_KEY_PREVIOUS is read, never written: `npm run cli -- secrets rotate-key` re-seals
// everything under the current key, after which it can be removed.
import "server-only";
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/lib/env";

const V1 = "enc:v1:";
const V2 = "enc:v2:";
const TAG_BYTES = 16; // pinned: GCM accepts shorter tags, which are easier to forge
const IV_BYTES = 12;

export const MAKE_KEY_HINT = "make one with `openssl rand -base64 32`";

/** A stored secret that cannot be opened with the configured keys: almost always a key mismatch. */
export class SecretKeyError extends Error {
  override name = "SecretKeyError";
}

/** The owner a sealed value is bound to (its associated data). */
export const secretOwner = {
  webhookSecret: (partnerId: string) => `partner:${partnerId}:webhook-secret`,
  outboundHeader: (partnerId: string) => `partner:${partnerId}:outbound-header`,
  totpSecret: (userId: string) => `user:${userId}:totp`,
};

type DataKey = { id: string; key: Buffer };

let derived = new Map<string, DataKey>();

function deriveKey(secret: string): DataKey {
  const hit = derived.get(secret);
  if (hit) return hit;
  if (derived.size > 8) derived = new Map();
  const key = Buffer.from(hkdfSync("sha256", secret, "rx-transfer", "secret-box v2", 32));
  const id = createHmac("sha256", key).update("secret-box key id").digest("hex").slice(0, 16);
  const value = { id, key };
  derived.set(secret, value);
  return value;
}

function currentKey(): DataKey {
  const secret = env().DATA_ENCRYPTION_KEY;
  if (!secret)
    throw new SecretKeyError(
      `DATA_ENCRYPTION_KEY is not set: stored secrets cannot be sealed or opened (${MAKE_KEY_HINT})`,
    );
  return deriveKey(secret);
}

/** The configured keys, current first. */
function configuredKeys(): DataKey[] {
  const previous = env().DATA_ENCRYPTION_KEY_PREVIOUS;
  return previous ? [currentKey(), deriveKey(previous)] : [currentKey()];
}

/** The current key's id, as it appears in `enc:v2:<key id>:…`. */
export function currentKeyId(): string {
  return currentKey().id;
}

/** The keys enc:v1 values may be under: the old derivations of the configured keys, and, outside production, of AUTH_SECRET. */
function legacyKeys(): Buffer[] {
  const { DATA_ENCRYPTION_KEY, DATA_ENCRYPTION_KEY_PREVIOUS, AUTH_SECRET, NODE_ENV } = env();
  const keys: Buffer[] = [];
  for (const secret of [DATA_ENCRYPTION_KEY, DATA_ENCRYPTION_KEY_PREVIOUS]) {
    if (!secret) continue;
    keys.push(createHash("sha256").update(secret).digest());
    // An installation that never set DATA_ENCRYPTION_KEY sealed under AUTH_SECRET: in production, give that
    // old AUTH_SECRET as DATA_ENCRYPTION_KEY_PREVIOUS and rotate.
    keys.push(Buffer.from(hkdfSync("sha256", secret, "rx-transfer", "secret-box v1", 32)));
  }
  if (NODE_ENV !== "production" && AUTH_SECRET)
    keys.push(Buffer.from(hkdfSync("sha256", AUTH_SECRET, "rx-transfer", "secret-box v1", 32)));
  return keys;
}

export function sealSecret(plain: string, owner: string): string {
  const { id, key } = currentKey();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(owner, "utf8"));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${V2}${id}:${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${body.toString("base64")}`;
}

function decrypt(key: Buffer, iv: Buffer, tag: Buffer, body: Buffer, owner: string | null): string {
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  if (owner !== null) decipher.setAAD(Buffer.from(owner, "utf8"));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
}

function parts(rest: string, count: number): string[] {
  const list = rest.split(":");
  if (list.length !== count || list.some((p, i) => p === "" && i < count - 1))
    throw new Error("malformed sealed secret");
  return list;
}

function checkedTag(text: string): Buffer {
  const tag = Buffer.from(text, "base64");
  if (tag.length !== TAG_BYTES)
    throw new Error(`malformed sealed secret: authentication tag of ${tag.length} bytes (${TAG_BYTES} required)`);
  return tag;
}

/** Which key a sealed value is under: "v1" for the legacy format, else the key id. */
export function sealedKeyId(sealed: string): string {
  if (sealed.startsWith(V1)) return "v1";
  if (sealed.startsWith(V2)) return parts(sealed.slice(V2.length), 4)[0]!;
  throw new Error("not a sealed secret");
}

/** True when the value is already in the current format under the current key (nothing to re-seal). */
export function isSealedUnderCurrentKey(sealed: string): boolean {
  return sealed.startsWith(V2) && sealedKeyId(sealed) === currentKeyId();
}

export function openSecret(sealed: string, owner: string): string {
  if (sealed.startsWith(V2)) {
    const [keyId, iv, tag, body] = parts(sealed.slice(V2.length), 4) as [string, string, string, string];
    const keys = configuredKeys();
    const key = keys.find((k) => k.id === keyId);
    if (!key) {
      throw new SecretKeyError(
        `a stored secret (${owner}) was sealed under another DATA_ENCRYPTION_KEY (key id ${keyId}; configured: ${keys.map((k) => k.id).join(", ")}). ` +
          "The server, the worker and the CLI must share DATA_ENCRYPTION_KEY; while rotating, give the old one as DATA_ENCRYPTION_KEY_PREVIOUS",
      );
    }
    try {
      return decrypt(key.key, Buffer.from(iv, "base64"), checkedTag(tag), Buffer.from(body, "base64"), owner);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith("malformed")) throw err;
      throw new SecretKeyError(
        `a stored secret (${owner}) does not open under its key ${keyId}: it was altered, or belongs to another owner`,
      );
    }
  }
  if (sealed.startsWith(V1)) {
    const [iv, tag, body] = parts(sealed.slice(V1.length), 3) as [string, string, string];
    const tagBytes = checkedTag(tag);
    for (const key of legacyKeys()) {
      try {
        return decrypt(key, Buffer.from(iv, "base64"), tagBytes, Buffer.from(body, "base64"), null);
      } catch {
        // the next candidate
      }
    }
    throw new SecretKeyError(
      `a stored secret (${owner}, format v1) was sealed under another DATA_ENCRYPTION_KEY (or, before one was set, under another AUTH_SECRET). ` +
        "The server, the worker and the CLI must share DATA_ENCRYPTION_KEY; give the old key as DATA_ENCRYPTION_KEY_PREVIOUS and run `npm run cli -- secrets rotate-key`",
    );
  }
  throw new Error("not a sealed secret");
}
