// Secrets we must read back (webhook signing secrets, partners' outbound credentials) are stored
// encrypted with AES-256-GCM under a key from the environment; a database dump alone does not reveal them.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/lib/env";

const PREFIX = "enc:v1:";

// Derived once per configured secret: every callback attempt opens a webhook secret.
let derived: { from: string; key: Buffer } | undefined;

function key(): Buffer {
  const { DATA_ENCRYPTION_KEY, AUTH_SECRET } = env();
  const from = DATA_ENCRYPTION_KEY ? `dek:${DATA_ENCRYPTION_KEY}` : `auth:${AUTH_SECRET ?? ""}`;
  if (derived?.from === from) return derived.key;
  let value: Buffer;
  if (DATA_ENCRYPTION_KEY) value = createHash("sha256").update(DATA_ENCRYPTION_KEY).digest();
  else if (AUTH_SECRET) value = Buffer.from(hkdfSync("sha256", AUTH_SECRET, "rx-transfer", "secret-box v1", 32));
  else throw new Error("DATA_ENCRYPTION_KEY or AUTH_SECRET must be set to store secrets");
  derived = { from, key: value };
  return value;
}

export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${PREFIX}${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${body.toString("base64")}`;
}

export function openSecret(sealed: string): string {
  if (!sealed.startsWith(PREFIX)) throw new Error("not a sealed secret");
  const [iv, tag, body] = sealed.slice(PREFIX.length).split(":");
  if (!iv || !tag || body === undefined) throw new Error("malformed sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
}
