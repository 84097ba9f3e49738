// One measured case of the queue part (and of the scale part, which runs the same cases on a larger table):
// our operation's p50 / p95 beside its floor's, in ms, with the plan of the statement that matters.
import { percentile } from "./support";

export type QueueCase = {
  name: string;
  p50: number;
  p95: number;
  baselineP50: number;
  baselineP95: number;
  ratio: number;
  plan: string[];
};

/** `runs` sequential calls of fn, each one's ms. */
export async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return ms;
}

/** A case's figures from its samples and its floor's; ratio is p50 over p50. */
export function queueCase(name: string, ours: number[], floor: number[], plan: string[] = []): QueueCase {
  const p50 = percentile(ours, 50);
  const baselineP50 = percentile(floor, 50);
  return {
    name,
    p50: round(p50),
    p95: round(percentile(ours, 95)),
    baselineP50: round(baselineP50),
    baselineP95: round(percentile(floor, 95)),
    ratio: round(p50 / baselineP50),
    plan,
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
