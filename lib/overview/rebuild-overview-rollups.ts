// `npm run cli -- overview rebuild-rollups`: drops the overview's rollups of the store's time zone and rolls
// every closed day of the window up again from the transfers, decisions and callbacks. For after a restore,
// a change to what a figure counts, or any doubt; the overview stays right meanwhile (days not rolled up are
// read live), only slower.
import { db } from "@/lib/db/prisma";
import { findStoreTimeZone } from "@/lib/overview/overview-calendar";
import { lockRollups, rollUpOverview, type RollUpOverviewResult } from "@/lib/overview/roll-up-overview";

const ROLLUP_TABLES = [
  "overview_hours",
  "overview_days",
  "overview_outcomes",
  "overview_partner_days",
  "overview_callback_delays",
  "overview_rollup_state",
] as const;

export async function rebuildOverviewRollups(
  options: { now?: Date; timeZone?: string } = {},
): Promise<RollUpOverviewResult> {
  const tz = options.timeZone ?? (await findStoreTimeZone());
  await db().$transaction(async (tx) => {
    await lockRollups(tx);
    for (const table of ROLLUP_TABLES) await tx.$executeRawUnsafe(`DELETE FROM ${table} WHERE time_zone = $1`, tz);
  });
  return rollUpOverview({ now: options.now, timeZone: tz, sweepCallbacksEveryMs: 0 });
}
