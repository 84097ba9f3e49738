import { describe, expect, it } from "vitest";
import {
  generateRecoveryCodes,
  hashRecoveryCode,
  looksLikeRecoveryCode,
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
} from "@/lib/auth/two-factor/recovery-codes";

describe("recovery codes", () => {
  it("makes ten distinct codes of 16 Crockford base32 characters (80 bits) in groups of four", () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
  });

  it("reads what people type: lower case, no dashes, spaces, O for 0, I and L for 1", () => {
    const [code] = generateRecoveryCodes(1);
    const stored = normalizeRecoveryCode(code!);
    expect(stored).toBe(code!.replace(/-/g, ""));
    expect(normalizeRecoveryCode(code!.toLowerCase().replace(/-/g, " "))).toBe(stored);
    expect(normalizeRecoveryCode("0000-1111-AAAA-BBBB")).toBe(normalizeRecoveryCode("oooo-iLil-aaaa-bbbb"));
  });

  it("refuses what cannot be a code, and hashes without keeping the code", () => {
    expect(normalizeRecoveryCode("short")).toBeNull();
    expect(normalizeRecoveryCode("UUUU-UUUU-UUUU-UUUU")).toBeNull(); // U is not in the alphabet
    expect(normalizeRecoveryCode("x".repeat(500))).toBeNull();
    const hash = hashRecoveryCode("ABCDEFGHJKMNPQRS");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain("ABCD");
    expect(looksLikeRecoveryCode("123456")).toBe(false);
    expect(looksLikeRecoveryCode("ABCD-EFGH-JKMN-PQRS")).toBe(true);
  });
});
