import { describe, expect, it } from "vitest";
import { histogramPercentile } from "@/lib/overview/histogram-percentile";

describe("histogramPercentile", () => {
  it("is percentile_cont over the values the bins stand for", () => {
    // 9 values of 10 and one of 2700: PostgreSQL's percentile_cont(0.9) is 10 + 0.1 × 2690 = 279.
    const bins = [
      { value: 2700, count: 1 },
      { value: 10, count: 9 },
    ];
    expect(histogramPercentile(bins, 0.5)).toBe(10);
    expect(histogramPercentile(bins, 0.9)).toBeCloseTo(279, 9);
    expect(
      histogramPercentile(
        [
          { value: 3, count: 1 },
          { value: 5, count: 1 },
        ],
        0.5,
      ),
    ).toBe(4);
  });

  it("is null without values", () => {
    expect(histogramPercentile([], 0.5)).toBeNull();
    expect(histogramPercentile([{ value: 1, count: 0 }], 0.5)).toBeNull();
  });
});
