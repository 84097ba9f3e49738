import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  computeDeaCheckDigit,
  computeNpiCheckDigit,
  hasDeaFormat,
  isUsStateCode,
  isValidDea,
  isValidNpi,
  US_STATE_CODES,
} from "@/lib/interface/identifiers";

describe("NPI", () => {
  it.each(["1234567893", "1558598797", "1245319599", "1843501234"])("accepts the valid NPI %s", (npi) => {
    expect(isValidNpi(npi)).toBe(true);
  });

  it.each([
    ["wrong check digit", "1234567890"],
    ["first digit not 1 or 2", "3234567893"],
    ["first digit 0", "0234567893"],
    ["nine digits", "123456789"],
    ["eleven digits", "12345678931"],
    ["letters", "12345678a3"],
    ["spaces", " 1234567893"],
    ["empty", ""],
  ])("rejects %s", (_label, npi) => {
    expect(isValidNpi(npi)).toBe(false);
  });

  it("computes the check digit of the documented examples", () => {
    expect(computeNpiCheckDigit("123456789")).toBe(3);
    expect(computeNpiCheckDigit("155859879")).toBe(7);
  });

  it("matches the 80840-prefixed Luhn definition for every nine-digit body", () => {
    const luhnValid = (digits: string) => {
      let sum = 0;
      for (let i = 0; i < digits.length; i++) {
        let d = Number(digits[digits.length - 1 - i]);
        if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
        sum += d;
      }
      return sum % 10 === 0;
    };
    fc.assert(
      fc.property(fc.stringMatching(/^[12]\d{8}$/), (body) => {
        const npi = body + String(computeNpiCheckDigit(body));
        expect(isValidNpi(npi)).toBe(true);
        expect(luhnValid(`80840${npi}`)).toBe(true);
      }),
    );
  });

  it("detects every single-digit change of a valid NPI", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[12]\d{8}$/),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        (body, pos, delta) => {
          const npi = body + String(computeNpiCheckDigit(body));
          const changed = npi.slice(0, pos) + String((Number(npi[pos]) + delta) % 10) + npi.slice(pos + 1);
          expect(isValidNpi(changed)).toBe(false);
        },
      ),
    );
  });

  it("refuses to compute a check digit for anything but nine digits", () => {
    expect(() => computeNpiCheckDigit("12345678")).toThrow(RangeError);
    expect(() => computeNpiCheckDigit("12345678x")).toThrow(RangeError);
  });
});

describe("DEA number", () => {
  it.each(["AP5836727", "AS1234563", "BJ6125341", "F91234563"])("accepts the valid DEA number %s", (dea) => {
    expect(isValidDea(dea)).toBe(true);
  });

  it.each([
    ["wrong check digit", "AP5836728"],
    ["lower case", "ap5836727"],
    ["one letter", "A15836727"],
    ["three letters", "APP836727"],
    ["six digits", "AP583672"],
    ["eight digits", "AP58367270"],
    ["a digit other than 9 as the second character", "A15836727"],
    ["empty", ""],
  ])("rejects %s", (_label, dea) => {
    expect(isValidDea(dea)).toBe(false);
  });

  it("computes (d1+d3+d5) + 2(d2+d4+d6), last digit", () => {
    expect(computeDeaCheckDigit("583672")).toBe(7);
    expect(computeDeaCheckDigit("123456")).toBe(3);
    expect(() => computeDeaCheckDigit("12345")).toThrow(RangeError);
  });

  it("tells the format from the check digit", () => {
    expect(hasDeaFormat("AP5836728")).toBe(true);
    expect(hasDeaFormat("AP583672")).toBe(false);
  });

  it("makes valid numbers from any six digits", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z][A-Z9]$/), fc.stringMatching(/^\d{6}$/), (letters, body) => {
        expect(isValidDea(`${letters}${body}${computeDeaCheckDigit(body)}`)).toBe(true);
      }),
    );
  });
});

describe("US state codes", () => {
  it("has the 50 states, DC, the territories, the freely associated states and the military codes", () => {
    expect(US_STATE_CODES.size).toBe(50 + 1 + 5 + 3 + 3);
    for (const code of ["PA", "CA", "DC", "PR", "VI", "GU", "AS", "MP", "AA", "AE", "AP", "FM", "MH", "PW"]) {
      expect(isUsStateCode(code)).toBe(true);
    }
  });

  it.each(["XX", "pa", "P", "PAA", "UK", "ON", ""])("rejects %s", (code) => {
    expect(isUsStateCode(code)).toBe(false);
  });
});
