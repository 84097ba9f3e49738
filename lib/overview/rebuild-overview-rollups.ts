// `npm run cli -- overview rebuild-rollups`: drops the overview's rollups of the store's time zone and rolls
// every closed day of the window up again from the transfers, decisions and callbacks. For after a restore,
// a change to what a figure counts, or any doubt; the overview stays right meanwhile (days not rolled up are
// read live), only slower.
import { sqlDb } from "@/lib/db/kysely";
import { findStoreTimeZone } from "@/lib/overview/overview-calendar";
import { deleteRollupDays, deleteRollupState, lockRollups, ROLLUP_TABLES } from "@/lib/overview/queries/rollups";
import { rollUpOverview, type RollUpOverviewResult } from "@/lib/overview/roll-up-overview";

export async function rebuildOverviewRollups(
  options: { now?: Date; timeZone?: string } = {},
): Promise<RollUpOverviewResult> {
  const tz = options.timeZone ?? (await findStoreTimeZone());
  await sqlDb()
    .transaction()
    .execute(async (trx) => {
      await lockRollups(trx);
      for (const table of ROLLUP_TABLES) await deleteRollupDays(trx, table, tz, {}).execute();
      await deleteRollupState(trx, tz).execute();
    });
  return rollUpOverview({ now: options.now, timeZone: tz, sweepCallbacksEveryMs: 0 });
}
