import { describe, expect, it } from "vitest";
import { formatNdc, normalizeNdc } from "@/lib/drugs";

describe("normalizeNdc", () => {
  it.each([
    // [input, ndc11, display]
    ["0002-3227-30", "00002322730", "00002-3227-30"], // 4-4-2: zero before the labeler
    ["50090-282-01", "50090028201", "50090-0282-01"], // 5-3-2: zero before the product
    ["68180-0514-1", "68180051401", "68180-0514-01"], // 5-4-1: zero before the package
    ["00002-3227-30", "00002322730", "00002-3227-30"], // 5-4-2 kept
    ["00002322730", "00002322730", "00002-3227-30"], // 11 digits kept
    [" NDC 0002-3227-30 ", "00002322730", "00002-3227-30"],
    ["0002 3227 30", "00002322730", "00002-3227-30"],
    ["0002 - 3227 - 30", "00002322730", "00002-3227-30"],
  ])("%s → %s", (input, ndc11, display) => {
    const n = normalizeNdc(input);
    expect(n.ndc11).toBe(ndc11);
    expect(n.ndc12).toBeNull();
    expect(n.display).toBe(display);
  });

  it("says which segment got the leading zero", () => {
    expect(normalizeNdc("0002-3227-30").note).toContain("4-4-2");
    expect(normalizeNdc("50090-282-01").note).toContain("product code");
    expect(normalizeNdc("68180-0514-1").note).toContain("package code");
    expect(normalizeNdc("00002-3227-30").note).toBeNull();
    expect(normalizeNdc("00002322730").note).toBeNull();
  });

  it("refuses to guess an unhyphenated 10-digit NDC, and lists the three readings", () => {
    const n = normalizeNdc("0002322730");
    expect(n.ndc11).toBeNull();
    expect(n.display).toBe("0002322730");
    expect(n.note).toContain("ambiguous");
    expect(n.note).toContain("00002-3227-30 (4-4-2)");
    expect(n.note).toContain("00023-0227-30 (5-3-2)");
    expect(n.note).toContain("00023-2273-00 (5-4-1)");
  });

  it("keeps a 12-digit 6-4-2 NDC (FDA format from 2033) as written", () => {
    for (const input of ["000002-3227-30", "000002322730"]) {
      const n = normalizeNdc(input);
      expect(n.ndc11).toBeNull();
      expect(n.ndc12).toBe("000002322730");
      expect(n.display).toBe("000002-3227-30");
      expect(n.note).toContain("2033");
    }
  });

  it.each(["123", "12345678", "123456789012345", "1234-123-12", "12345-12345-1", "ABCDE-1234-12", "", "  "])(
    "%j is not an NDC",
    (input) => {
      const n = normalizeNdc(input);
      expect(n.ndc11).toBeNull();
      expect(n.ndc12).toBeNull();
      expect(n.display).toBe(input);
      expect(n.note).toMatch(/^Not an NDC/);
    },
  );
});

describe("formatNdc", () => {
  it("hyphenates 11 digits as 5-4-2 and 12 as 6-4-2", () => {
    expect(formatNdc("00002322730")).toBe("00002-3227-30");
    expect(formatNdc("000002322730")).toBe("000002-3227-30");
  });

  it("returns anything else as given", () => {
    expect(formatNdc("0002322730")).toBe("0002322730");
    expect(formatNdc("abc")).toBe("abc");
  });
});
