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
import { db } from "@/lib/db/prisma";
import {
  countArrivalsByHour,
  countCallbackDelays,
  countCallbackStates,
  countMissing,
  countOutcomes,
  measureDecisionTimes,
  type DayRange,
} from "@/lib/overview/overview-day-queries";
import { findStoreTimeZone, localDateOf, localMidnights, shiftDate } from "@/lib/overview/overview-calendar";
import { OVERVIEW_DAYS } from "@/lib/overview/overview-views";
import { SENDER_WINDOW_MS } from "@/lib/interface";
import type { Prisma } from "@/generated/prisma/client";

type Tx = Prisma.TransactionClient;

const ROLLUP_LOCK = 7324032;
/** Past the 4-hour window: a transaction committing this late after its timestamp is not expected. */
const SETTLE_MS = 5 * 60_000;
/** Rows older than the window by this many days are deleted by the callback sweep. */
const KEEP_EXTRA_DAYS = 7;
const TX = { maxWait: 30_000, timeout: 300_000 } as const;

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

const toDay = (date: string) => new Date(`${date}T00:00:00Z`);

/** The last local day that is closed at `now`: its end is past the sender's window and the margin. */
export async function lastClosedDay(tz: string, now: Date): Promise<string> {
  const { date } = await localDateOf(db(), tz, new Date(now.getTime() - SENDER_WINDOW_MS - SETTLE_MS));
  return shiftDate(date, -1);
}

export async function findCompleteThrough(
  tz: string,
): Promise<{ completeThrough: string; sweptAt: Date | null } | null> {
  const [row] = await db().$queryRaw<{ complete_through: string; callbacks_swept_at: Date | null }[]>`
    SELECT to_char(complete_through, 'YYYY-MM-DD') AS complete_through, callbacks_swept_at
      FROM overview_rollup_state WHERE time_zone = ${tz}`;
  return row ? { completeThrough: row.complete_through, sweptAt: row.callbacks_swept_at } : null;
}

/** Every write to the rollups holds this lock to the end of its transaction. */
export async function lockRollups(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ROLLUP_LOCK}::bigint)`;
}

async function lockedState(tx: Tx, tz: string): Promise<string | null> {
  await lockRollups(tx);
  const [row] = await tx.$queryRaw<{ complete_through: string }[]>`
    SELECT to_char(complete_through, 'YYYY-MM-DD') AS complete_through
      FROM overview_rollup_state WHERE time_zone = ${tz}`;
  return row?.complete_through ?? null;
}

async function writeCallbackRows(tx: Tx, range: DayRange): Promise<void> {
  const [states, delays] = await Promise.all([countCallbackStates(tx, range), countCallbackDelays(tx, range)]);
  await tx.overviewPartnerDay.createMany({
    data: states.map((s) => ({
      timeZone: range.tz,
      day: toDay(s.date),
      partnerId: s.partner_id,
      delivered: s.delivered,
      pending: s.pending,
      retrying: s.retrying,
      failed: s.failed,
      refused: s.refused,
    })),
  });
  await tx.overviewCallbackDelay.createMany({
    data: delays.map((d) => ({
      timeZone: range.tz,
      day: toDay(d.date),
      partnerId: d.partner_id,
      tenths: d.tenths,
      count: d.count,
    })),
  });
}

/** One closed day, whole, in its own transaction. False when another run had done it already. */
async function rollUpDay(tz: string, date: string, now: Date): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const done = await lockedState(tx, tz);
    if (done !== null && done >= date) return false;
    const [from, to] = await localMidnights(tx, tz, [date, shiftDate(date, 1)]);
    const range = { tz, from: from!, to: to! };
    const day = toDay(date);
    for (const table of ["overview_hours", "overview_days", "overview_outcomes"] as const)
      await tx.$executeRawUnsafe(`DELETE FROM ${table} WHERE time_zone = $1 AND day = $2::date`, tz, date);
    await tx.$executeRaw`DELETE FROM overview_partner_days WHERE time_zone = ${tz} AND day = ${date}::date`;
    await tx.$executeRaw`DELETE FROM overview_callback_delays WHERE time_zone = ${tz} AND day = ${date}::date`;
    const [hours, times, missing, outcomes] = await Promise.all([
      countArrivalsByHour(tx, range),
      measureDecisionTimes(tx, range),
      countMissing(tx, range, now),
      countOutcomes(tx, range),
    ]);
    await tx.overviewHour.createMany({
      data: hours.map((h) => ({ timeZone: tz, day, hour: h.hour, arrivals: h.count })),
    });
    const time = times[0];
    await tx.overviewDay.create({
      data: {
        timeZone: tz,
        day,
        decided: time?.decided ?? 0,
        medianMinutes: time?.median ?? null,
        p90Minutes: time?.p90 ?? null,
        missing: missing[0]?.count ?? 0,
      },
    });
    await tx.overviewOutcome.createMany({
      data: outcomes.map((o) => ({
        timeZone: tz,
        day,
        decision: o.decision,
        errorType: o.error_type ?? "",
        count: o.count,
      })),
    });
    await writeCallbackRows(tx, range);
    await tx.$executeRaw`
      INSERT INTO overview_rollup_state (time_zone, complete_through) VALUES (${tz}, ${date}::date)
      ON CONFLICT (time_zone) DO UPDATE SET complete_through = excluded.complete_through`;
    return true;
  }, TX);
}

/** Recounts the callbacks of every rolled-up day in the window, and drops rows long out of it. */
async function sweepCallbacks(tz: string, windowStart: string, now: Date): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const done = await lockedState(tx, tz);
    if (done === null || done < windowStart) return false;
    const [from, to] = await localMidnights(tx, tz, [windowStart, shiftDate(done, 1)]);
    await tx.$executeRaw`
      DELETE FROM overview_partner_days WHERE time_zone = ${tz} AND day >= ${windowStart}::date AND day <= ${done}::date`;
    await tx.$executeRaw`
      DELETE FROM overview_callback_delays WHERE time_zone = ${tz} AND day >= ${windowStart}::date AND day <= ${done}::date`;
    await writeCallbackRows(tx, { tz, from: from!, to: to! });
    const keepFrom = shiftDate(windowStart, -KEEP_EXTRA_DAYS);
    for (const table of [
      "overview_hours",
      "overview_days",
      "overview_outcomes",
      "overview_partner_days",
      "overview_callback_delays",
    ])
      await tx.$executeRawUnsafe(`DELETE FROM ${table} WHERE time_zone = $1 AND day < $2::date`, tz, keepFrom);
    await tx.$executeRaw`UPDATE overview_rollup_state SET callbacks_swept_at = ${now} WHERE time_zone = ${tz}`;
    return true;
  }, TX);
}

/**
 * Rolls up every closed day of the overview's window not rolled up yet, oldest first, one transaction per day;
 * then recounts the rolled-up days' callbacks when that count is older than `sweepCallbacksEveryMs`.
 */
export async function rollUpOverview(options: RollUpOverviewOptions = {}): Promise<RollUpOverviewResult> {
  const now = options.now ?? new Date();
  const tz = options.timeZone ?? (await findStoreTimeZone());
  const { date: today } = await localDateOf(db(), tz, now);
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
