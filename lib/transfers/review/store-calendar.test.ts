// Every date rule on the store's own calendar day, with the clock pinned on both sides of midnight in a zone
// west of UTC (America/Chicago, UTC-6 in November) and one east of it (Asia/Tokyo, UTC+9), with real drugs.
import { describe, expect, it } from "vitest";
import { DEFAULT_STORE_RULES, type StoreRulesInZone } from "@/lib/stores/store-rules";
import { calendarDayIn } from "@/lib/interface";
import { reviewDrug } from "@/lib/transfers/review/drug-review";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { reviewChecks } from "@/lib/transfers/review/review-checks";
import type { TransferRequest } from "@/lib/interface";

const CHICAGO = "America/Chicago";
const TOKYO = "Asia/Tokyo";
const zone = (timeZone: string): StoreRulesInZone => ({ ...DEFAULT_STORE_RULES, timeZone });

function rx(change: (p: TransferRequest["prescription"]) => void): TransferRequest {
  const r = structuredClone(buildTransferRequest({}, { now: new Date("2026-11-20T12:00:00Z") }));
  Object.assign(r.prescription, {
    refillsAuthorized: 6,
    refillsRemaining: 4,
    expirationDate: "2027-05-01T12:00:00Z",
  });
  change(r.prescription);
  return r;
}

const blocksOf = (r: TransferRequest, timeZone: string, now: string) =>
  reviewDrug(r, zone(timeZone), new Date(now)).blocks.map((b) => b.rule);

const checksOf = (r: TransferRequest, timeZone: string, now: string) =>
  Object.fromEntries(
    reviewChecks(r, reviewDrug(r, zone(timeZone), new Date(now)), { earlyRefillAllowance: 0.25 }).map((c) => [c.id, c]),
  );

describe("the store's calendar day", () => {
  it("reads an instant as the day it falls on in the zone", () => {
    expect(calendarDayIn(new Date("2026-11-28T04:30:00Z"), CHICAGO)).toBe("2026-11-27");
    expect(calendarDayIn(new Date("2026-11-28T06:30:00Z"), CHICAGO)).toBe("2026-11-28");
    expect(calendarDayIn(new Date("2026-11-27T14:30:00Z"), TOKYO)).toBe("2026-11-27");
    expect(calendarDayIn(new Date("2026-11-27T15:30:00Z"), TOKYO)).toBe("2026-11-28");
  });

  it("Illinois, late evening: a Schedule IV written exactly six months earlier is still lawful that day", () => {
    const alprazolam = rx((p) => {
      p.medicationName = "Alprazolam 0.5 mg";
      p.writtenDate = "2026-05-27T10:15:00-05:00";
      p.firstFilledDate = "2026-05-27T16:00:00-05:00";
      p.lastFilledDate = "2026-06-26T16:00:00-05:00";
    });
    // 22:30 on 27 November in Chicago (04:30 on the 28th in UTC): the last lawful day.
    const evening = reviewDrug(alprazolam, zone(CHICAGO), new Date("2026-11-28T04:30:00Z"));
    expect(evening.today).toBe("2026-11-27");
    expect(evening.legalExpiry).toBe("2026-11-27");
    expect(evening.blocks).toEqual([]);
    expect(evening.refills).toMatchObject({ refillsRemaining: 4, lapsed: false });
    // Counting UTC's day, the same moment was refused ("lapsed"): the bug this rule fixes.
    expect(blocksOf(alprazolam, "UTC", "2026-11-28T04:30:00Z")).toEqual(["controlled-six-months"]);
    // After midnight in Chicago, it has lapsed, and no refill lawfully remains.
    const after = reviewDrug(alprazolam, zone(CHICAGO), new Date("2026-11-28T06:30:00Z"));
    expect(after.blocks.map((b) => b.rule)).toEqual(["controlled-six-months"]);
    expect(after.blocks[0]!.detail).toContain("185 days ago");
    expect(after.refills).toMatchObject({ refillsRemaining: 0, lapsed: true });
  });

  it("Tokyo: the six months end at Tokyo's midnight, before UTC's", () => {
    const zolpidem = rx((p) => {
      p.medicationName = "Zolpidem Tartrate 10 mg";
      p.writtenDate = "2026-05-27T09:00:00+09:00";
      p.firstFilledDate = "2026-05-27T18:00:00+09:00";
      p.lastFilledDate = "2026-06-27T18:00:00+09:00";
    });
    expect(blocksOf(zolpidem, TOKYO, "2026-11-27T14:30:00Z")).toEqual([]); // 23:30 on the 27th in Tokyo
    expect(blocksOf(zolpidem, TOKYO, "2026-11-27T15:30:00Z")).toEqual(["controlled-six-months"]); // 00:30 on the 28th
    // UTC's day is still the 27th: counted in UTC, it would have been approved a day too long.
    expect(blocksOf(zolpidem, "UTC", "2026-11-27T15:30:00Z")).toEqual([]);
  });

  it("a non-controlled prescription's legal expiry (the store's 12 months) ends at the store's midnight", () => {
    const lisinopril = rx((p) => {
      p.medicationName = "Lisinopril 10 mg";
      p.writtenDate = "2025-11-27T09:00:00-06:00";
      p.firstFilledDate = "2025-11-27T12:00:00-06:00";
      p.lastFilledDate = "2026-10-27T12:00:00-05:00";
      p.expirationDate = "2026-11-30T12:00:00-06:00";
    });
    expect(blocksOf(lisinopril, CHICAGO, "2026-11-28T05:59:00Z")).toEqual([]);
    expect(blocksOf(lisinopril, CHICAGO, "2026-11-28T06:01:00Z")).toEqual(["legal-expiry"]);
    expect(blocksOf(lisinopril, TOKYO, "2026-11-27T14:59:00Z")).toEqual([]);
    expect(blocksOf(lisinopril, TOKYO, "2026-11-27T15:01:00Z")).toEqual(["legal-expiry"]);
  });

  it("says the sender's expiration date as the store's day it passes on, and counts the store's days to it", () => {
    const sertraline = rx((p) => {
      p.medicationName = "Sertraline 50 mg";
      p.writtenDate = "2026-09-01T09:00:00-05:00";
      p.firstFilledDate = "2026-09-01T12:00:00-05:00";
      p.lastFilledDate = "2026-10-01T12:00:00-05:00";
      p.expirationDate = "2026-12-01T03:00:00Z";
    });
    const chicago = checksOf(sertraline, CHICAGO, "2026-11-28T04:30:00Z");
    expect(chicago.expiry).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(/^Valid until 2026-11-30, in 3 days/),
    });
    const tokyo = checksOf(sertraline, TOKYO, "2026-11-28T04:30:00Z");
    expect(tokyo.expiry).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(/^Valid until 2026-12-01, in 3 days/),
    });
    // Passed at the instant the sender gave (as at intake), whatever the zone.
    expect(blocksOf(sertraline, CHICAGO, "2026-12-01T03:00:00Z")).toEqual(["sender-expiry"]);
  });

  it("refill too soon: due on the store's day (Chicago)", () => {
    // Last filled 29 Oct at 23:00 in Chicago (30 Oct in UTC), 30-day supply, 25 % early: due 23 days later.
    const escitalopram = rx((p) => {
      p.medicationName = "Escitalopram 10 mg";
      p.daysSupply = 30;
      p.writtenDate = "2026-09-29T09:00:00-05:00";
      p.firstFilledDate = "2026-09-29T12:00:00-05:00";
      p.lastFilledDate = "2026-10-29T23:00:00-05:00";
    });
    const at = "2026-11-21T20:00:00Z"; // 14:00 on 21 Nov in Chicago
    expect(checksOf(escitalopram, CHICAGO, at)["next-fill"]).toMatchObject({
      status: "pass",
      detail: expect.stringContaining("due since 2026-11-21 (last filled 2026-10-29"),
    });
    expect(checksOf(escitalopram, "UTC", at)["next-fill"]).toMatchObject({
      status: "info",
      detail: expect.stringContaining("due on 2026-11-22"),
    });
  });

  it("refill too soon: due on the store's day (Tokyo, on both sides of its midnight)", () => {
    const levothyroxine = rx((p) => {
      p.medicationName = "Levothyroxine 50 mcg";
      p.daysSupply = 30;
      p.writtenDate = "2026-09-30T09:00:00+09:00";
      p.firstFilledDate = "2026-09-30T12:00:00+09:00";
      p.lastFilledDate = "2026-10-30T08:00:00+09:00"; // 29 Oct in UTC
    });
    expect(checksOf(levothyroxine, TOKYO, "2026-11-21T14:00:00Z")["next-fill"]!.status).toBe("info"); // 23:00
    expect(checksOf(levothyroxine, TOKYO, "2026-11-21T16:00:00Z")["next-fill"]!.status).toBe("pass"); // 01:00
  });

  it("fill plausibility counts the store's days between the fills", () => {
    // Two fills of a 29-day supply need 21.75 days at 25 % early. 1 Oct 23:30 to 23 Oct 10:00 in Chicago is
    // 22 of Chicago's days; in UTC (2 Oct to 23 Oct) it would be 21 and flagged.
    const metformin = rx((p) => {
      p.medicationName = "Metformin 500 mg";
      p.daysSupply = 29;
      p.writtenDate = "2026-10-01T09:00:00-05:00";
      p.firstFilledDate = "2026-10-01T23:30:00-05:00";
      p.lastFilledDate = "2026-10-23T10:00:00-05:00";
    });
    expect(checksOf(metformin, CHICAGO, "2026-11-10T12:00:00Z")["fill-history"]).toMatchObject({
      status: "pass",
      detail: expect.stringContaining("between 2026-10-01 and 2026-10-23 (22 days)"),
    });
    expect(checksOf(metformin, "UTC", "2026-11-10T12:00:00Z")["fill-history"]!.status).toBe("warn");
  });
});
