// `npm run bench`'s command line (the options are listed at the top of bench/run.ts) and each part's settings,
// the short ones of --quick (the smoke run the test suite uses) or the full run's.
import { SCALE_TRANSFERS } from "./scale-disk";

export const PARTS = [
  "intake",
  "queue",
  "dashboard",
  "overview",
  "callbacks",
  "metrics",
  "approvals",
  "scale",
] as const;
export type Part = (typeof PARTS)[number];

/** The value after `flag` on the command line (undefined when the flag is absent). */
function valueOf(argv: readonly string[], flag: string): string | undefined {
  return argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined;
}

/** The run's options and the parts' settings; an unknown part after --only ends the process (exit 2). */
export function runOptions(argv: readonly string[]) {
  const quick = argv.includes("--quick");
  const only = valueOf(argv, "--only");
  if (argv.includes("--only") && !PARTS.includes(only as Part)) {
    process.stderr.write(`--only takes one of: ${PARTS.join(", ")}\n`);
    process.exit(2);
  }
  const sweep = valueOf(argv, "--callbacks-sweep");
  const queueSizes = valueOf(argv, "--queue-sizes");
  const scaleTransfers = valueOf(argv, "--scale-transfers");
  return {
    quick,
    /** The one part --only names, or null when every part runs. */
    only: only ?? null,
    runs: (part: Part) => (only !== undefined ? only === part : part !== "scale" || argv.includes("--scale")),
    /** Intake with a store's immediate-confirmation policy on vs off (bench/intake-immediate.ts); skip: --no-immediate. */
    immediate: !argv.includes("--no-immediate"),
    /** `--immediate-only`: of the intake part, only the policy on vs off rounds. */
    immediateOnly: argv.includes("--immediate-only"),
    /** `--intake-before <checkout>`: run that built checkout's `npm start` in the intake's rounds too (an A/B). */
    intakeBefore: valueOf(argv, "--intake-before"),
    /** `--callbacks-before <checkout>` (repeatable): that checkout's worker in the callbacks' drain rounds too (an A/B). */
    callbacksBefore: argv.flatMap((arg, i) => (arg === "--callbacks-before" ? [argv[i + 1]!] : [])),
    /**
     * `--callbacks-sweep 16x4,32x4,8x8,32x4@0`: more workers of this checkout in the callbacks' rounds, as batch
     * size x concurrency, and @ CALLBACK_GATHER_MS when given.
     */
    callbacksSweep: sweep
      ? sweep.split(",").map((spec) => {
          const [size, delay] = spec.split("@");
          return [...size!.split("x").map(Number), delay === undefined ? undefined : Number(delay)] as const;
        })
      : [],
    /** `--scale-transfers N`: the scale part's table size instead of SCALE_TRANSFERS. */
    scaleTransfers: scaleTransfers !== undefined ? Number(scaleTransfers) : SCALE_TRANSFERS,
    settings: quick ? { connections: 10, seconds: 3, rounds: 1 } : { connections: 50, seconds: 20, rounds: 2 },
    /** `--queue-sizes 1000000` (comma-separated): the queue part's table sizes instead of the defaults. */
    queueSizes: queueSizes !== undefined ? queueSizes.split(",").map(Number) : quick ? [20_000] : [100_000, 1_000_000],
    queueRuns: quick ? 5 : 40,
    approvalSettings: quick ? { count: 20, rounds: 1 } : { count: 300, rounds: 4 },
    // The dashboard in Chromium: over the largest queue size (seeded here when the queue part did not run).
    dashboardSettings: quick ? { samples: 3, warmUp: 1 } : { samples: 40, warmUp: 3 },
    // The overview's server time over transfers of its own (bench/overview.ts).
    overviewSettings: quick ? { transfers: 20_000, samples: 3 } : { transfers: 1_000_000, samples: 40 },
    callbackSettings: quick
      ? { count: 20, latencySamples: 5, drainRounds: 1 }
      : { count: 2000, latencySamples: 50, drainRounds: 3 },
  };
}
