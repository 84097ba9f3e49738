// What the dashboard part reports (bench/dashboard.ts), and the summaries its samples are reduced to.
import { percentile } from "./support";

export type Timing = { p50: number; p95: number; max: number };
export type Step = {
  ours: Timing;
  /** The API call alone (same browser, same session): GET /api/transfers/:id, or POST …/approve. */
  baseline: Timing;
  /** ours p50 / baseline p50. */
  ratio: number;
  /** Requests the page sent between the click and the state (HTTP round trips the person waits on). */
  requestsPerStep: number;
  /** What those requests were, in the last sample (method and path). */
  requestsOfLastSample: string[];
  samples: number[];
};
export type DashboardResult = {
  transfersInTable: number;
  samples: number;
  warmUp: number;
  open: Step;
  approve: Step;
  /** From the same click: the decision's notice (the POST answered), before the record is re-read. */
  approveNotice: Timing;
  /**
   * The server's response time of the document request (Navigation Timing responseStart - requestStart), one
   * of each per sample in turn: the review screen of a pending transfer, and the queue's first page
   * (unfiltered, as a pharmacist opens it). ratio: review p50 / queue p50.
   */
  documentServer: { review: Timing; queue: Timing; ratio: number };
  /** The queue's CLS (largest session window, shifts after input left out), per load, watched for watchMs. */
  queueLayoutShift: { loads: number; watchMs: number; desktop: ShiftFigures; narrow: ShiftFigures };
  /** GET /api/overview from the signed-in page (a pharmacist's: without the partner figures), after the samples. */
  overview: Timing;
  /** The server's whole process tree, per sample (the open, the approval, both baseline calls and the page's pollers). */
  serverCpuMsPerSample: number;
  loadAverage: { start: number[]; end: number[] };
  /** The whole part: server start, the /v1 sends, sign-in, every sample (what it adds to a bench run). */
  seconds: number;
  /** Of which: `npm start` until it answers (migrations, worker, Next). */
  serverStartSeconds: number;
};

export type ShiftFigures = { p50: number; max: number; samples: number[] };

export const round = (n: number) => Math.round(n * 10) / 10;

export const timing = (xs: number[]): Timing => ({
  p50: round(percentile(xs, 50)),
  p95: round(percentile(xs, 95)),
  max: round(Math.max(...xs)),
});

/** One step's samples (ours, the API call alone, the requests of each) as reported, over `samples`. */
export function stepOf(s: { ours: number[]; baseline: number[]; requests: string[][] }, samples: number): Step {
  const ours = timing(s.ours);
  const baseline = timing(s.baseline);
  return {
    ours,
    baseline,
    ratio: Math.round((ours.p50 / baseline.p50) * 100) / 100,
    requestsPerStep: round(s.requests.reduce((n, r) => n + r.length, 0) / samples),
    requestsOfLastSample: s.requests.at(-1) ?? [],
    samples: s.ours.map(round),
  };
}
