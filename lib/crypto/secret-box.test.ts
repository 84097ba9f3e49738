import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { setEnv } from "@/lib/env";
import {
  currentKeyId,
  isSealedUnderCurrentKey,
  openSecret,
  sealSecret,
  sealedKeyId,
  SecretKeyError,
} from "@/lib/crypto/secret-box";

const KEY_A = "a".repeat(40);
const KEY_B = "b".repeat(40);
const OWNER = "partner:prt_1:webhook-secret";

/** A value as the first format sealed it (format v1: no associated data). */
function sealV1(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `enc:v1:${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${body.toString("base64")}`;
}

function withKeys(current: string, previous = "", authSecret = "z".repeat(40), nodeEnv = "test"): void {
  setEnv({
    DATA_ENCRYPTION_KEY: current,
    DATA_ENCRYPTION_KEY_PREVIOUS: previous,
    AUTH_SECRET: authSecret,
    NODE_ENV: nodeEnv,
  });
}

describe("secret box", () => {
  beforeEach(() => withKeys(KEY_A));

  it("round-trips under v2 with the key id, and never stores the plain text", () => {
    const sealed = sealSecret("whsec_abc", OWNER);
    expect(sealed).toMatch(/^enc:v2:[0-9a-f]{16}:/);
    expect(sealedKeyId(sealed)).toBe(currentKeyId());
    expect(sealed).not.toContain("whsec_abc");
    expect(openSecret(sealed, OWNER)).toBe("whsec_abc");
    expect(sealSecret("whsec_abc", OWNER)).not.toBe(sealed);
  });

  it("refuses a value bound to another owner (associated data)", () => {
    const sealed = sealSecret("whsec_abc", OWNER);
    expect(() => openSecret(sealed, "partner:prt_2:webhook-secret")).toThrow(SecretKeyError);
    expect(() => openSecret(sealed, "partner:prt_1:outbound-header")).toThrow(/altered, or belongs to another owner/);
  });

  it("refuses a tampered value", () => {
    const parts = sealSecret("secret", OWNER).split(":");
    const body = Buffer.from(parts[5]!, "base64");
    body[0] = body[0]! ^ 1;
    parts[5] = body.toString("base64");
    expect(() => openSecret(parts.join(":"), OWNER)).toThrow(SecretKeyError);
  });

  it("pins the GCM tag to 16 bytes: a truncated tag is refused before decryption", () => {
    const parts = sealSecret("secret", OWNER).split(":");
    for (const bytes of [4, 8, 12, 15]) {
      const cut = [...parts];
      cut[4] = Buffer.from(parts[4]!, "base64").subarray(0, bytes).toString("base64");
      expect(() => openSecret(cut.join(":"), OWNER)).toThrow(/authentication tag of \d+ bytes \(16 required\)/);
    }
  });

  it("names the likely cause when the value was sealed under another DATA_ENCRYPTION_KEY", () => {
    const sealed = sealSecret("secret", OWNER);
    withKeys(KEY_B);
    expect(() => openSecret(sealed, OWNER)).toThrow(/sealed under another DATA_ENCRYPTION_KEY/);
    // During a rotation the old key, given as previous, still opens it; it is not under the current key.
    withKeys(KEY_B, KEY_A);
    expect(openSecret(sealed, OWNER)).toBe("secret");
    expect(isSealedUnderCurrentKey(sealed)).toBe(false);
    expect(isSealedUnderCurrentKey(sealSecret("secret", OWNER))).toBe(true);
  });

  it("derives the key with HKDF: not the bare SHA-256 of DATA_ENCRYPTION_KEY that v1 used", () => {
    const sealed = sealSecret("secret", OWNER);
    const [, , , iv, tag, body] = sealed.split(":");
    const sha = createHash("sha256").update(KEY_A).digest();
    const decipher = createDecipheriv("aes-256-gcm", sha, Buffer.from(iv!, "base64"), { authTagLength: 16 });
    decipher.setAAD(Buffer.from(OWNER));
    decipher.setAuthTag(Buffer.from(tag!, "base64"));
    expect(() => Buffer.concat([decipher.update(Buffer.from(body!, "base64")), decipher.final()])).toThrow();
  });

  it("still opens v1 values: under SHA-256 of DATA_ENCRYPTION_KEY, and (outside production) under AUTH_SECRET", () => {
    const v1 = sealV1("old-secret", createHash("sha256").update(KEY_A).digest());
    expect(openSecret(v1, OWNER)).toBe("old-secret");
    expect(isSealedUnderCurrentKey(v1)).toBe(false);

    const authSecret = "s".repeat(40);
    const underAuth = sealV1(
      "dev-secret",
      Buffer.from(hkdfSync("sha256", authSecret, "rx-transfer", "secret-box v1", 32)),
    );
    withKeys(KEY_A, "", authSecret);
    expect(openSecret(underAuth, OWNER)).toBe("dev-secret");
    // Production never falls back to AUTH_SECRET; the old AUTH_SECRET is given as the previous key instead.
    withKeys(KEY_A, "", authSecret, "production");
    expect(() => openSecret(underAuth, OWNER)).toThrow(/sealed under another DATA_ENCRYPTION_KEY/);
    withKeys(KEY_A, authSecret, authSecret, "production");
    expect(openSecret(underAuth, OWNER)).toBe("dev-secret");
  });

  it("never seals without DATA_ENCRYPTION_KEY (no fallback to AUTH_SECRET)", () => {
    setEnv({ DATA_ENCRYPTION_KEY: "", AUTH_SECRET: "z".repeat(40) });
    expect(() => sealSecret("x", OWNER)).toThrow(/DATA_ENCRYPTION_KEY is not set.*openssl rand -base64 32/);
  });
});
