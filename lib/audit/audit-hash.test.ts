import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { auditKey, keyedAuditHash, keyIdOf, plainAuditHash, type HashedContent } from "@/lib/audit/audit-hash";
import { canonicalJson } from "@/lib/canonical-json";
import { setEnv } from "@/lib/env";

const EVENT: HashedContent = {
  at: new Date("2026-11-23T17:00:00.000Z"),
  userId: "usr_1",
  actor: "pat@pharmacy.example",
  action: "transfer.viewed",
  transferId: "trf_1",
  clientAddress: "192.0.2.1",
  details: { b: 1, a: [2, 3] },
};
const PREV = "ab".repeat(32);

describe("audit hashes", () => {
  beforeEach(() => setEnv({ AUDIT_HMAC_KEY: "k".repeat(40) }));

  it("verifies records written before the keyed chain exactly as they were hashed (plain SHA-256)", () => {
    const legacy = createHash("sha256")
      .update(
        canonicalJson([
          PREV,
          EVENT.at.toISOString(),
          EVENT.userId,
          EVENT.actor,
          EVENT.action,
          EVENT.transferId,
          EVENT.clientAddress,
          EVENT.details,
        ]),
      )
      .digest("hex");
    expect(plainAuditHash(PREV, EVENT)).toBe(legacy);
  });

  it("keys the hash: another key, another algorithm name or another content gives another hash", () => {
    const key = auditKey();
    const hash = keyedAuditHash(key, PREV, EVENT);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toBe(plainAuditHash(PREV, EVENT));
    expect(keyedAuditHash({ ...key, alg: "sha256" }, PREV, EVENT)).not.toBe(hash); // the algorithm is covered
    expect(keyedAuditHash(key, PREV, { ...EVENT, actor: "mallory" })).not.toBe(hash);
    setEnv({ AUDIT_HMAC_KEY: "m".repeat(40) });
    const other = auditKey();
    expect(other.id).not.toBe(key.id);
    expect(keyedAuditHash(other, PREV, EVENT)).not.toBe(hash);
  });

  it("names the algorithm with the key's id, which is a fingerprint and not the key", () => {
    const key = auditKey();
    expect(key.alg).toBe(`hmac-sha256:${key.id}`);
    expect(keyIdOf(key.alg)).toBe(key.id);
    expect(keyIdOf("sha256")).toBeNull();
    expect(keyIdOf("md5")).toBeUndefined();
    expect(key.id).not.toContain("k".repeat(8));
  });

  it("refuses to work without AUDIT_HMAC_KEY, saying how to make one", () => {
    setEnv({ AUDIT_HMAC_KEY: "" });
    expect(() => auditKey()).toThrow(/AUDIT_HMAC_KEY is not set.*openssl rand -base64 32/);
  });
});
