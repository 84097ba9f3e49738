// The overview's rollups: each closed local day's figures written once into small tables, so that the overview
// reads 30 days from a few hundred rows and aggregates only the days not rolled up yet (today, and yesterday
// until 4 h after midnight) from the indexed columns (lib/overview/get-overview.ts).
//
// Safe to run anywhere, any number of times: every write happens under one transaction-scoped advisory lock,
// a day's rows are deleted and written again whole (never incremented), and the day is marked done
// (overview_rollup_state.complete_through) in the same transaction. A worker killed mid-day leaves nothing;
// a second worker, or a restarted one, recomputes the same values or skips the days already done.
//
// A day is closed once its last arrival is past the sender's 4-hour window (the missing count is final),
// plus a margin for transactions that commit after their timestamp. Callback states change after the day
// (a retry delivers, a pharmacist redelivers), so the callbacks per partner of the rolled-up days are
// recounted every `sweepCallbacksEveryMs`.
import { sqlDb } from "@/lib/db/kysely";
import { findStoreTimeZone, localDateOf, localMidnights, shiftDate } from "@/lib/overview/overview-calendar";
import { OVERVIEW_DAYS } from "@/lib/overview/overview-views";
import {
  countArrivalsByHour,
  countCallbackDelays,
  countCallbackStates,
  countMissing,
  countOutcomes,
  measureDecisionTimes,
} from "@/lib/overview/queries/day-figures";
import type { DayRange, Executor } from "@/lib/overview/queries/executor";
import {
  deleteRollupDays,
  insertCallbackDelays,
  insertDay,
  insertHours,
  insertOutcomes,
  insertPartnerDays,
  lockRollups,
  ROLLUP_TABLES,
  selectRollupState,
  updateCallbacksSweptAt,
  upsertCompleteThrough,
} from "@/lib/overview/queries/rollups";
import { SENDER_WINDOW_MS } from "@/lib/interface";

/** Past the 4-hour window: a transaction committing this late after its timestamp is not expected. */
const SETTLE_MS = 5 * 60_000;
/** Rows older than the window by this many days are deleted by the callback sweep. */
const KEEP_EXTRA_DAYS = 7;

export type RollUpOverviewOptions = {
  now?: Date;
  /** Defaults to the time zone of the PHARMACY_NPI store. */
  timeZone?: string;
  /** Roll up at most this many days in this call (the rest in the next). */
  maxDays?: number;
  /** Recount the callbacks of the rolled-up days when the last count is older than this; 0: now. */
  sweepCallbacksEveryMs?: number;
};

export type RollUpOverviewResult = {
  timeZone: string;
  daysRolledUp: string[];
  /** Every local day up to this one is rolled up (null: none yet). */
  completeThrough: string | null;
  callbacksSwept: boolean;
};

/** The last local day that is closed at `now`: its end is past the sender's window and the margin. */
export async function lastClosedDay(tz: string, now: Date): Promise<string> {
  const { date } = await localDateOf(sqlDb(), tz, new Date(now.getTime() - SENDER_WINDOW_MS - SETTLE_MS));
  return shiftDate(date, -1);
}

export async function findCompleteThrough(
  tz: string,
): Promise<{ completeThrough: string; sweptAt: Date | null } | null> {
  const row = await selectRollupState(sqlDb(), tz).executeTakeFirst();
  return row ? { completeThrough: row.complete_through, sweptAt: row.callbacks_swept_at } : null;
}

async function lockedState(trx: Executor, tz: string): Promise<string | null> {
  await lockRollups(trx);
  const row = await selectRollupState(trx, tz).executeTakeFirst();
  return row?.complete_through ?? null;
}

async function writeCallbackRows(trx: Executor, range: DayRange): Promise<void> {
  const [states, delays] = await Promise.all([
    countCallbackStates(trx, range).execute(),
    countCallbackDelays(trx, range).execute(),
  ]);
  if (states.length > 0)
    await insertPartnerDays(
      trx,
      range.tz,
      states.map(({ date, partner_id, ...counts }) => ({ day: date, partnerId: partner_id, ...counts })),
    ).execute();
  if (delays.length > 0)
    await insertCallbackDelays(
      trx,
      range.tz,
      delays.map((d) => ({ day: d.date, partnerId: d.partner_id, tenths: d.tenths, count: d.count })),
    ).execute();
}

/** One closed day, whole, in its own transaction. False when another run had done it already. */
async function rollUpDay(tz: string, date: string, now: Date): Promise<boolean> {
  return sqlDb()
    .transaction()
    .execute(async (trx) => {
      const done = await lockedState(trx, tz);
      if (done !== null && done >= date) return false;
      const [from, to] = await localMidnights(trx, tz, [date, shiftDate(date, 1)]);
      const range = { tz, from: from!, to: to! };
      for (const table of ROLLUP_TABLES) await deleteRollupDays(trx, table, tz, { first: date, last: date }).execute();
      // One after the other: a transaction is one connection, which runs one statement at a time anyway.
      const hours = await countArrivalsByHour(trx, range).execute();
      const [time] = await measureDecisionTimes(trx, range).execute();
      const [missing] = await countMissing(trx, range, now).execute();
      const outcomes = await countOutcomes(trx, range).execute();
      if (hours.length > 0)
        await insertHours(
          trx,
          tz,
          hours.map((h) => ({ day: date, hour: h.hour, arrivals: h.count })),
        ).execute();
      await insertDay(trx, tz, {
        day: date,
        decided: time?.decided ?? 0,
        medianMinutes: time?.median ?? null,
        p90Minutes: time?.p90 ?? null,
        missing: missing?.count ?? 0,
      }).execute();
      if (outcomes.length > 0)
        await insertOutcomes(
          trx,
          tz,
          outcomes.map((o) => ({ day: date, decision: o.decision, errorType: o.error_type ?? "", count: o.count })),
        ).execute();
      await writeCallbackRows(trx, range);
      await upsertCompleteThrough(trx, tz, date).execute();
      return true;
    });
}

/** Recounts the callbacks of every rolled-up day in the window, and drops rows long out of it. */
async function sweepCallbacks(tz: string, windowStart: string, now: Date): Promise<boolean> {
  return sqlDb()
    .transaction()
    .execute(async (trx) => {
      const done = await lockedState(trx, tz);
      if (done === null || done < windowStart) return false;
      const [from, to] = await localMidnights(trx, tz, [windowStart, shiftDate(done, 1)]);
      for (const table of ["overview_partner_days", "overview_callback_delays"] as const)
        await deleteRollupDays(trx, table, tz, { first: windowStart, last: done }).execute();
      await writeCallbackRows(trx, { tz, from: from!, to: to! });
      const keepFrom = shiftDate(windowStart, -KEEP_EXTRA_DAYS);
      for (const table of ROLLUP_TABLES)
        await deleteRollupDays(trx, table, tz, { last: shiftDate(keepFrom, -1) }).execute();
      await updateCallbacksSweptAt(trx, tz, now).execute();
      return true;
    });
}

/**
 * Rolls up every closed day of the overview's window not rolled up yet, oldest first, one transaction per day;
 * then recounts the rolled-up days' callbacks when that count is older than `sweepCallbacksEveryMs`.
 */
export async function rollUpOverview(options: RollUpOverviewOptions = {}): Promise<RollUpOverviewResult> {
  const now = options.now ?? new Date();
  const tz = options.timeZone ?? (await findStoreTimeZone());
  const { date: today } = await localDateOf(sqlDb(), tz, now);
  const windowStart = shiftDate(today, -(OVERVIEW_DAYS - 1));
  const lastClosed = await lastClosedDay(tz, now);
  const state = await findCompleteThrough(tz);
  const daysRolledUp: string[] = [];
  let next = state && state.completeThrough >= windowStart ? shiftDate(state.completeThrough, 1) : windowStart;
  while (next <= lastClosed && daysRolledUp.length < (options.maxDays ?? Infinity)) {
    if (await rollUpDay(tz, next, now)) daysRolledUp.push(next);
    next = shiftDate(next, 1);
  }
  const after = await findCompleteThrough(tz);
  const every = options.sweepCallbacksEveryMs ?? 0;
  const due = after !== null && (after.sweptAt === null || now.getTime() - after.sweptAt.getTime() >= every);
  const callbacksSwept = due ? await sweepCallbacks(tz, windowStart, now) : false;
  return { timeZone: tz, daysRolledUp, completeThrough: after?.completeThrough ?? null, callbacksSwept };
}
