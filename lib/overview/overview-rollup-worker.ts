// The worker's part in the overview: every minute, roll up the days that have closed (usually one a day, a few
// hours after local midnight) and, every 10 minutes, recount the rolled-up days' callbacks. Started by the
// callback worker beside its alert scanner; every worker runs it, and the rollup's lock makes that safe
// (lib/overview/roll-up-overview.ts).
import { errorFields, log } from "@/lib/log";
import { rollUpOverview } from "@/lib/overview/roll-up-overview";

const TICK_MS = 60_000;
const SWEEP_CALLBACKS_EVERY_MS = 10 * 60_000;

export function startOverviewRollups(): { stop(): void } {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    rollUpOverview({ sweepCallbacksEveryMs: SWEEP_CALLBACKS_EVERY_MS })
      .then(
        (r) =>
          r.daysRolledUp.length > 0 &&
          log("info", "overview days rolled up", { days: r.daysRolledUp.length, completeThrough: r.completeThrough }),
      )
      .catch((err: unknown) => log("warn", "overview rollup failed", errorFields(err)))
      .finally(() => (running = false));
  };
  tick();
  const timer = setInterval(tick, TICK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
