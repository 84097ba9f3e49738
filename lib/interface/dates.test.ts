import { describe, expect, it } from "vitest";
import { instantOf, startOfDayUtc } from "./dates";

describe("wire dates", () => {
  it("reads an RFC 3339 date-time in its own offset, to the millisecond", () => {
    expect(instantOf("2026-10-14T09:30:00Z")).toBe(Date.UTC(2026, 9, 14, 9, 30));
    expect(instantOf("2026-10-14T09:30:00-05:00")).toBe(Date.UTC(2026, 9, 14, 14, 30));
    expect(instantOf("2026-10-14T09:30:00.123456+01:30")).toBe(Date.UTC(2026, 9, 14, 8, 0, 0, 123));
    // Years below 100 are years, not 1900 + year as Date.UTC would make them.
    expect(new Date(instantOf("0099-01-01T00:00:00Z")).getUTCFullYear()).toBe(99);
  });

  it("refuses what the schema would not have accepted", () => {
    expect(() => instantOf("2026-10-14")).toThrow(RangeError);
  });

  it("gives midnight UTC of a calendar date", () => {
    expect(startOfDayUtc("2026-02-28")).toBe(Date.UTC(2026, 1, 28));
  });
});
