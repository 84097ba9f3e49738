// percentile_cont over a histogram: the value at fraction p of the sorted values, interpolated linearly
// between the two nearest, as PostgreSQL's percentile_cont does over the values themselves. Lets the
// callbacks' delays of 30 rolled-up days merge (lib/overview/roll-up-overview.ts). Client-safe.

export type HistogramBin = { value: number; count: number };

/** null for an empty histogram; p in [0, 1]. */
export function histogramPercentile(bins: HistogramBin[], p: number): number | null {
  const sorted = bins.filter((b) => b.count > 0).sort((a, b) => a.value - b.value);
  const n = sorted.reduce((a, b) => a + b.count, 0);
  if (n === 0) return null;
  const position = p * (n - 1);
  const below = Math.floor(position);
  const valueAt = (index: number): number => {
    let seen = 0;
    for (const bin of sorted) {
      seen += bin.count;
      if (index < seen) return bin.value;
    }
    return sorted[sorted.length - 1]!.value;
  };
  const lo = valueAt(below);
  return lo + (position - below) * (valueAt(Math.ceil(position)) - lo);
}
