import { describe, expect, it } from "vitest";
import { generateSecret, hasValidChecksum, safeEqualHex, sha256Hex } from "@/lib/auth/secrets";

describe("secrets", () => {
  it("generates prefixed secrets whose checksum verifies", () => {
    const key = generateSecret("rxk");
    expect(key).toMatch(/^rxk_[0-9A-Za-z]{36}$/);
    expect(hasValidChecksum(key, "rxk")).toBe(true);
  });

  it("refuses a secret with one character changed, another prefix or another length", () => {
    const key = generateSecret("rxk");
    const last = key.at(-6) === "a" ? "b" : "a";
    expect(hasValidChecksum(key.slice(0, -6) + last + key.slice(-5), "rxk")).toBe(false);
    expect(hasValidChecksum(key, "rxs")).toBe(false);
    expect(hasValidChecksum(key + "0", "rxk")).toBe(false);
  });

  it("gives distinct secrets", () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateSecret("rxk")));
    expect(seen.size).toBe(200);
  });

  it("compares hashes in constant time and tells equal from different", () => {
    expect(safeEqualHex(sha256Hex("a"), sha256Hex("a"))).toBe(true);
    expect(safeEqualHex(sha256Hex("a"), sha256Hex("b"))).toBe(false);
    expect(safeEqualHex(sha256Hex("a"), "00")).toBe(false);
  });
});
