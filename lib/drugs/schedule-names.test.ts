import { describe, expect, it } from "vitest";
import { CONTROLLED_SCHEDULES_NAME, scheduleNumeralOf, scheduleOfText } from "@/lib/drugs/schedule-names";

describe("schedule spellings", () => {
  it("reads a decision's code, the intake's numeral and the label as one schedule", () => {
    expect(["CIV", "C-IV", "IV", "c-iv"].map(scheduleOfText)).toEqual(["IV", "IV", "IV", "IV"]);
    expect(scheduleOfText("CII")).toBe("II");
  });

  it("answers null for what is not a schedule", () => {
    expect([null, undefined, "", "none", "unknown", "VI", "CVI"].map(scheduleOfText)).toEqual(Array(7).fill(null));
  });

  it("leaves an unknown spelling for the caller's schema to refuse", () => {
    expect(scheduleNumeralOf("c-vi")).toBe("VI");
  });

  it("names every controlled schedule in a sentence", () => {
    expect(CONTROLLED_SCHEDULES_NAME).toBe("Schedule II to V");
  });
});
