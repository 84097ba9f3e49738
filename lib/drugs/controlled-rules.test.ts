import { describe, expect, it } from "vitest";
import { CONTROLLED_EXPIRY_MONTHS, MAX_CONTROLLED_REFILLS, lawfulRefills, legalExpiry, validMonths } from "@/lib/drugs";

describe("legalExpiry", () => {
  it("Schedule III and IV lapse 6 months after the written date (1306.22)", () => {
    expect(CONTROLLED_EXPIRY_MONTHS).toBe(6);
    expect(
      legalExpiry({ writtenDate: "2025-01-15T10:00:00Z", schedule: "IV", nonControlledMonths: 12 }).toISOString(),
    ).toBe("2025-07-15T10:00:00.000Z");
    expect(
      legalExpiry({ writtenDate: "2025-01-15T10:00:00Z", schedule: "III", nonControlledMonths: 12 }).toISOString(),
    ).toBe("2025-07-15T10:00:00.000Z");
  });

  it("Schedule II, V and non-controlled take the store's months", () => {
    for (const schedule of ["II", "V", null] as const) {
      expect(
        legalExpiry({ writtenDate: "2025-01-15T10:00:00Z", schedule, nonControlledMonths: 12 }).toISOString(),
      ).toBe("2026-01-15T10:00:00.000Z");
    }
    expect(validMonths("V", 24)).toBe(24);
    expect(validMonths("IV", 24)).toBe(6);
  });

  it("clamps the day to the end of a shorter month", () => {
    expect(
      legalExpiry({ writtenDate: "2025-08-31T09:00:00Z", schedule: "IV", nonControlledMonths: 12 }).toISOString(),
    ).toBe("2026-02-28T09:00:00.000Z");
    expect(
      legalExpiry({ writtenDate: "2023-08-31T09:00:00Z", schedule: "IV", nonControlledMonths: 12 }).toISOString(),
    ).toBe("2024-02-29T09:00:00.000Z");
    expect(
      legalExpiry({ writtenDate: "2024-02-29T00:00:00Z", schedule: null, nonControlledMonths: 12 }).toISOString(),
    ).toBe("2025-02-28T00:00:00.000Z");
    expect(
      legalExpiry({ writtenDate: "2025-03-31T00:00:00Z", schedule: null, nonControlledMonths: 1 }).toISOString(),
    ).toBe("2025-04-30T00:00:00.000Z");
  });

  it("counts months in the prescriber's own calendar and offset", () => {
    // Written late on Aug 31 in New York (already Sep 1 in UTC): the calendar date written is Aug 31.
    expect(
      legalExpiry({ writtenDate: "2025-08-31T22:00:00-04:00", schedule: "IV", nonControlledMonths: 12 }).toISOString(),
    ).toBe(
      "2026-03-01T02:00:00.000Z", // Feb 28 22:00 at -04:00
    );
    expect(
      legalExpiry({
        writtenDate: "2025-01-10T08:30:15.250+05:30",
        schedule: "III",
        nonControlledMonths: 12,
      }).toISOString(),
    ).toBe("2025-07-10T03:00:15.250Z");
  });

  it("crosses year ends and accepts a bare date", () => {
    expect(legalExpiry({ writtenDate: "2025-10-05", schedule: "IV", nonControlledMonths: 12 }).toISOString()).toBe(
      "2026-04-05T00:00:00.000Z",
    );
  });

  it("throws on something that is not a date", () => {
    expect(() => legalExpiry({ writtenDate: "yesterday", schedule: null, nonControlledMonths: 12 })).toThrow(
      RangeError,
    );
    expect(() => legalExpiry({ writtenDate: "2025-13-01T00:00:00Z", schedule: null, nonControlledMonths: 12 })).toThrow(
      RangeError,
    );
  });
});

describe("lawfulRefills", () => {
  it("caps Schedule III/IV at 5 refills after the first fill", () => {
    expect(MAX_CONTROLLED_REFILLS).toBe(5);
    // 12 authorized including the first fill = 11 refills written; 8 remain, so 3 were used.
    expect(lawfulRefills({ schedule: "IV", refillsAuthorized: 12, refillsRemaining: 8, filled: true })).toEqual({
      writtenAfterFirst: 11,
      lawfulAfterFirst: 5,
      used: 3,
      refillsRemaining: 2,
      senderRefillsRemaining: 8,
      lawfulRemaining: 2,
      capped: true,
      firstFillPending: false,
      lapsed: false,
    });
  });

  it("leaves nothing once the lawful refills are used, whatever the prescription says", () => {
    const r = lawfulRefills({ schedule: "III", refillsAuthorized: 12, refillsRemaining: 6, filled: true });
    expect(r).toMatchObject({ used: 5, lawfulRemaining: 0, capped: true });
  });

  it("does not cap a prescription within the limit", () => {
    expect(lawfulRefills({ schedule: "IV", refillsAuthorized: 6, refillsRemaining: 2, filled: true })).toEqual({
      writtenAfterFirst: 5,
      lawfulAfterFirst: 5,
      used: 3,
      refillsRemaining: 2,
      senderRefillsRemaining: 2,
      lawfulRemaining: 2,
      capped: false,
      firstFillPending: false,
      lapsed: false,
    });
  });

  it("counts the first fill as remaining when the prescription was never filled", () => {
    expect(lawfulRefills({ schedule: "IV", refillsAuthorized: 1, refillsRemaining: 0, filled: false })).toEqual({
      writtenAfterFirst: 0,
      lawfulAfterFirst: 0,
      used: 0,
      refillsRemaining: 0,
      senderRefillsRemaining: 0,
      lawfulRemaining: 1,
      capped: false,
      firstFillPending: true,
      lapsed: false,
    });
    expect(
      lawfulRefills({ schedule: "III", refillsAuthorized: 6, refillsRemaining: 5, filled: false }).lawfulRemaining,
    ).toBe(6);
  });

  it("allows no Schedule II refills (1306.12)", () => {
    expect(lawfulRefills({ schedule: "II", refillsAuthorized: 3, refillsRemaining: 2, filled: true })).toMatchObject({
      writtenAfterFirst: 2,
      lawfulAfterFirst: 0,
      lawfulRemaining: 0,
      capped: true,
    });
  });

  it("does not cap Schedule V or non-controlled prescriptions", () => {
    for (const schedule of ["V", null] as const) {
      expect(lawfulRefills({ schedule, refillsAuthorized: 12, refillsRemaining: 8, filled: true })).toMatchObject({
        lawfulAfterFirst: 11,
        used: 3,
        lawfulRemaining: 8,
        capped: false,
      });
    }
  });

  it("leaves no refill once a Schedule III/IV prescription is six months old, and only then", () => {
    const args = { refillsAuthorized: 6, refillsRemaining: 4, filled: true, lapsed: true };
    expect(lawfulRefills({ ...args, schedule: "IV" })).toMatchObject({
      refillsRemaining: 0,
      senderRefillsRemaining: 4,
      lawfulRemaining: 0,
      lapsed: true,
    });
    // Schedule V and non-controlled prescriptions have no federal six months: the store's expiry refuses them.
    expect(lawfulRefills({ ...args, schedule: "V" })).toMatchObject({ refillsRemaining: 4, lapsed: false });
  });

  it("stays sane on inconsistent input", () => {
    expect(lawfulRefills({ schedule: "IV", refillsAuthorized: 3, refillsRemaining: 9, filled: true })).toMatchObject({
      used: 0,
      lawfulRemaining: 2,
    });
    expect(lawfulRefills({ schedule: "IV", refillsAuthorized: 0, refillsRemaining: 0, filled: true })).toMatchObject({
      writtenAfterFirst: 0,
      lawfulRemaining: 0,
    });
  });
});
