import { describe, expect, it } from "vitest";
import { StoreAlertSettingsSchema, type OpeningHours } from "@/lib/alerts/alert-settings";
import { addOpenMinutes, alertDueAt, arrivedAfterHours, isOpenAt, nextOpenInstant } from "@/lib/alerts/opening-hours";

const weekdays8to20: OpeningHours = [
  null,
  ...Array.from({ length: 5 }, () => ({ open: "08:00", close: "20:00" })),
  { open: "09:00", close: "13:00" },
];
const CHICAGO = "America/Chicago";

describe("opening hours in the store's time zone", () => {
  it("always open without hours", () => {
    const at = new Date("2026-11-22T03:00:00Z");
    expect(isOpenAt(at, null, CHICAGO)).toBe(true);
    expect(alertDueAt(at, 120, null, CHICAGO).toISOString()).toBe("2026-11-22T05:00:00.000Z");
  });

  it("a Tuesday 21:30 Chicago arrival (CST, UTC-6) is after hours and its 2-hour alert waits for 08:00 Wednesday", () => {
    const received = new Date("2026-11-25T03:30:00Z"); // Tue 24 Nov 21:30 CST
    expect(arrivedAfterHours(received, weekdays8to20, CHICAGO)).toBe(true);
    expect(alertDueAt(received, 120, weekdays8to20, CHICAGO).toISOString()).toBe("2026-11-25T14:00:00.000Z");
  });

  it("a Saturday 12:30 arrival crosses 2 hours after the 13:00 closing: due Monday 08:00 (Sunday closed)", () => {
    const received = new Date("2026-11-28T18:30:00Z"); // Sat 28 Nov 12:30 CST
    expect(arrivedAfterHours(received, weekdays8to20, CHICAGO)).toBe(false);
    expect(alertDueAt(received, 120, weekdays8to20, CHICAGO).toISOString()).toBe("2026-11-30T14:00:00.000Z");
  });

  it("follows daylight saving time: 08:00 in July Chicago is 13:00 UTC", () => {
    const night = new Date("2026-07-15T05:00:00Z"); // Wed 00:00 CDT
    expect(nextOpenInstant(night, weekdays8to20, CHICAGO).toISOString()).toBe("2026-07-15T13:00:00.000Z");
    expect(isOpenAt(new Date("2026-07-15T13:00:00Z"), weekdays8to20, CHICAGO)).toBe(true);
    expect(isOpenAt(new Date("2026-07-15T12:59:00Z"), weekdays8to20, CHICAGO)).toBe(false);
  });

  it("a crossing during opening hours is due at once", () => {
    const received = new Date("2026-11-24T15:00:00Z"); // Tue 09:00 CST
    expect(alertDueAt(received, 180, weekdays8to20, CHICAGO).toISOString()).toBe("2026-11-24T18:00:00.000Z");
  });
});

describe("the settings schema", () => {
  it("refuses thresholds out of order, at or past 4 hours, bad times and unknown zones, naming the field", () => {
    const bad = StoreAlertSettingsSchema.safeParse({
      alertThresholdsMinutes: [180, 120, 240],
      openingHours: [{ open: "20:00", close: "08:00" }, null, null, null, null, null, null],
      timeZone: "Mars/Olympus",
    });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["alertThresholdsMinutes.2", "openingHours.0.close", "timeZone"]));
    expect(
      StoreAlertSettingsSchema.safeParse({
        alertThresholdsMinutes: [90, 150],
        openingHours: weekdays8to20,
        timeZone: CHICAGO,
      }).success,
    ).toBe(true);
  });
});

describe("addOpenMinutes: a limit counted during opening hours", () => {
  it("without hours it is the wall clock", () => {
    const at = new Date("2026-11-27T21:00:00Z");
    expect(addOpenMinutes(at, 240, null, CHICAGO).toISOString()).toBe("2026-11-28T01:00:00.000Z");
  });

  it("within one open stretch it is the wall clock", () => {
    const at = new Date("2026-11-24T15:00:00Z"); // Tue 09:00 CST
    expect(addOpenMinutes(at, 240, weekdays8to20, CHICAGO).toISOString()).toBe("2026-11-24T19:00:00.000Z");
  });

  it("Friday 18:00 + 4 h: 2 h on Friday, Saturday's 4 h (09:00-13:00) use the other 2 h: Saturday 11:00", () => {
    const at = new Date("2026-11-28T00:00:00Z"); // Fri 27 Nov 18:00 CST
    expect(addOpenMinutes(at, 240, weekdays8to20, CHICAGO).toISOString()).toBe("2026-11-28T17:00:00.000Z");
  });

  it("Saturday 12:00 + 4 h: 1 h on Saturday, Sunday closed, 3 h on Monday: Monday 11:00", () => {
    const at = new Date("2026-11-28T18:00:00Z"); // Sat 28 Nov 12:00 CST
    expect(addOpenMinutes(at, 240, weekdays8to20, CHICAGO).toISOString()).toBe("2026-11-30T17:00:00.000Z");
  });

  it("a start while closed counts from the next opening", () => {
    const at = new Date("2026-11-25T04:00:00Z"); // Tue 24 Nov 22:00 CST
    expect(addOpenMinutes(at, 240, weekdays8to20, CHICAGO).toISOString()).toBe("2026-11-25T18:00:00.000Z");
  });
});
