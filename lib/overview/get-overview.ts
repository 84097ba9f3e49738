// The overview's figures. The closed days of the last 30 come from the worker's rollups
// (lib/overview/roll-up-overview.ts), a few hundred rows; the days after the last rolled-up one (today, and
// yesterday until 4 h past midnight, or more if no worker has run) are aggregated live by the same statements
// (lib/overview/overview-day-queries.ts), as are the figures of the moment: pending by age, today's decisions
// by hour, the partners' last hour and the immediate confirmations waiting. "Today" and the hours are the
// store's calendar: the time zone of PHARMACY_NPI's alert settings (UTC when it has none). `now` is an option
// so that tests pin the clock.
import { sqlDb } from "@/lib/db/kysely";
import { findStoreTimeZone, localDateOf, localMidnights, shiftDate } from "@/lib/overview/overview-calendar";
import {
  countArrivalsByHour,
  countCallbackDelays,
  countCallbackStates,
  countMissing,
  countOutcomes,
  measureDecisionTimes,
} from "@/lib/overview/queries/day-figures";
import type { DayRange } from "@/lib/overview/queries/executor";
import {
  countAnswersLastHour,
  countDecisionsByHour,
  countImmediateConfirmations,
  countPendingByAge,
  selectPartnerNames,
} from "@/lib/overview/queries/live-figures";
import {
  selectRolledArrivals,
  selectRolledDays,
  selectRolledDelays,
  selectRolledOutcomes,
  selectRolledPartnerStates,
  type RolledDays,
} from "@/lib/overview/queries/rollups";
import { histogramPercentile, type HistogramBin } from "@/lib/overview/histogram-percentile";
import {
  AGE_BANDS,
  OVERVIEW_DAYS,
  USUAL_WEEKS,
  type Overview,
  type OverviewDay,
  type OverviewImmediate,
  type OverviewOutcome,
  type OverviewPartner,
} from "@/lib/overview/overview-views";
import { findCompleteThrough } from "@/lib/overview/roll-up-overview";
import { SENDER_CUTOFF_RATE } from "@/lib/partners/failure-rate";

export type GetOverviewOptions = {
  now?: Date;
  /** Partner figures are for admins: a pharmacist's overview leaves them out (and does not read them). */
  withPartners: boolean;
  /** Defaults to the time zone of the PHARMACY_NPI store. */
  timeZone?: string;
};

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const roundMinutes = (m: number | null) => (m === null ? null : Math.round(m * 10) / 10);
const minOf = (a: string, b: string) => (a < b ? a : b);

/** Which days the rollups answer for, and the live range after them. */
type Split = {
  tz: string;
  now: Date;
  firstDay: string;
  /** The last rolled-up day read from the rollups; null: none, everything is live. */
  rolledThrough: string | null;
  /** From the first day not rolled up to now, inclusive. */
  live: DayRange;
};

/** The rolled-up days the overview reads, or null when it reads every day live. */
const rolledDays = ({ tz, firstDay, rolledThrough }: Split): RolledDays | null =>
  rolledThrough ? { tz, firstDay, rolledThrough } : null;

export async function getOverview(options: GetOverviewOptions): Promise<Overview> {
  const now = options.now ?? new Date();
  const tz = options.timeZone ?? (await findStoreTimeZone());
  const q = sqlDb();
  const [{ date: today, hour }, state] = await Promise.all([localDateOf(q, tz, now), findCompleteThrough(tz)]);
  const firstDay = shiftDate(today, -(OVERVIEW_DAYS - 1));
  const rolledThrough =
    state && state.completeThrough >= firstDay ? minOf(state.completeThrough, shiftDate(today, -1)) : null;
  const liveFirstDay = rolledThrough ? shiftDate(rolledThrough, 1) : firstDay;
  const usualDays = Array.from({ length: USUAL_WEEKS }, (_, i) => shiftDate(today, -7 * (i + 1)));
  const [dayStart, liveFrom, usualFrom] = await localMidnights(q, tz, [
    today,
    liveFirstDay,
    usualDays[USUAL_WEEKS - 1]!,
  ]);
  const nowInclusive = new Date(now.getTime() + 1);
  const split: Split = { tz, now, firstDay, rolledThrough, live: { tz, from: liveFrom!, to: nowInclusive } };

  const [arrivals, pending, decisionsToday, days, outcomes, partners, immediateConfirmation] = await Promise.all([
    readArrivals(split, usualDays, usualFrom!),
    countPendingByAge(q, now).execute(),
    countDecisionsByHour(q, tz, dayStart!, now).execute(),
    readDays(split),
    readOutcomes(split),
    options.withPartners ? readPartners(split) : Promise.resolve(undefined),
    readImmediate(now, dayStart!),
  ]);

  const arrivalsOn = (date: string, hour: number) => arrivals.get(`${date} ${hour}`) ?? 0;
  const pendingByAge = AGE_BANDS.map((band) => ({ band, count: pending.find((p) => p.band === band)?.count ?? 0 }));
  const decided = (hour: number, decision: string) =>
    decisionsToday.find((d) => d.hour === hour && d.decision === decision)?.count ?? 0;

  return {
    generatedAt: now.toISOString(),
    today: {
      date: today,
      hour,
      timeZone: tz,
      arrivals: HOURS.map((h) => ({
        hour: h,
        today: arrivalsOn(today, h),
        usual: Math.round((usualDays.reduce((a, d) => a + arrivalsOn(d, h), 0) / USUAL_WEEKS) * 10) / 10,
      })),
      pendingByAge,
      lapsingWithinHour: pendingByAge.find((p) => p.band === "3-4h")!.count,
      decisions: HOURS.map((h) => ({ hour: h, approved: decided(h, "APPROVED"), rejected: decided(h, "REJECTED") })),
    },
    last30Days: { days, outcomes },
    ...(partners ? { partners } : {}),
    immediateConfirmation,
  };
}

/** Arrivals by "date hour": today and the usual weekdays, rolled up or live. */
async function readArrivals(split: Split, usualDays: string[], usualFrom: Date): Promise<Map<string, number>> {
  const { tz, rolledThrough, live } = split;
  const liveRange = { ...live, from: live.from > usualFrom ? live.from : usualFrom };
  const [rolled, counted] = await Promise.all([
    rolledThrough ? selectRolledArrivals(sqlDb(), tz, usualDays, rolledThrough).execute() : Promise.resolve([]),
    countArrivalsByHour(sqlDb(), liveRange).execute(),
  ]);
  return new Map([...rolled, ...counted].map((r) => [`${r.date} ${r.hour}`, r.count]));
}

async function readDays(split: Split): Promise<OverviewDay[]> {
  const { now, firstDay, live } = split;
  const rolled = rolledDays(split);
  const [rolledRows, times, missing] = await Promise.all([
    rolled ? selectRolledDays(sqlDb(), rolled).execute() : Promise.resolve([]),
    measureDecisionTimes(sqlDb(), live).execute(),
    countMissing(sqlDb(), live, now).execute(),
  ]);
  const byDate = new Map(rolledRows.map((r) => [r.date, r]));
  for (const t of times) byDate.set(t.date, { ...t, missing: missing.find((m) => m.date === t.date)?.count ?? 0 });
  for (const m of missing)
    if (!byDate.has(m.date))
      byDate.set(m.date, { date: m.date, decided: 0, median: null, p90: null, missing: m.count });
  return Array.from({ length: OVERVIEW_DAYS }, (_, i) => {
    const date = shiftDate(firstDay, i);
    const d = byDate.get(date);
    return {
      date,
      decided: d?.decided ?? 0,
      medianMinutes: roundMinutes(d?.median ?? null),
      p90Minutes: roundMinutes(d?.p90 ?? null),
      missing: d?.missing ?? 0,
    };
  });
}

async function readOutcomes(split: Split): Promise<OverviewOutcome[]> {
  const { live } = split;
  const rolled = rolledDays(split);
  const [rolledRows, counted] = await Promise.all([
    rolled ? selectRolledOutcomes(sqlDb(), rolled).execute() : Promise.resolve([]),
    countOutcomes(sqlDb(), live).execute(),
  ]);
  const totals = new Map<string, OverviewOutcome>();
  for (const r of [...rolledRows, ...counted]) {
    const errorType = r.error_type || null;
    const key = `${r.decision} ${errorType ?? ""}`;
    const seen = totals.get(key);
    if (seen) seen.count += r.count;
    else totals.set(key, { decision: r.decision, errorType, count: r.count });
  }
  return [...totals.values()].sort(
    (a, b) =>
      b.count - a.count || a.decision.localeCompare(b.decision) || (a.errorType ?? "").localeCompare(b.errorType ?? ""),
  );
}

type States = { delivered: number; pending: number; retrying: number; failed: number; refused: number };

async function readPartners(split: Split): Promise<OverviewPartner[]> {
  const { now, live } = split;
  const rolled = rolledDays(split);
  const [partners, rolledStates, rolledDelays, liveStates, liveDelays, rates] = await Promise.all([
    selectPartnerNames(sqlDb()).execute(),
    rolled ? selectRolledPartnerStates(sqlDb(), rolled).execute() : Promise.resolve([]),
    rolled ? selectRolledDelays(sqlDb(), rolled).execute() : Promise.resolve([]),
    countCallbackStates(sqlDb(), live).execute(),
    countCallbackDelays(sqlDb(), live).execute(),
    countAnswersLastHour(sqlDb(), now).execute(),
  ]);
  const states = new Map<string, States>();
  for (const s of [...rolledStates, ...liveStates]) {
    const t = states.get(s.partner_id) ?? { delivered: 0, pending: 0, retrying: 0, failed: 0, refused: 0 };
    t.delivered += s.delivered;
    t.pending += s.pending;
    t.retrying += s.retrying;
    t.failed += s.failed;
    t.refused += s.refused;
    states.set(s.partner_id, t);
  }
  const delays = new Map<string, HistogramBin[]>();
  for (const d of [...rolledDelays, ...liveDelays])
    delays.set(d.partner_id, [...(delays.get(d.partner_id) ?? []), { value: d.tenths, count: d.count }]);
  const minutesAt = (bins: HistogramBin[], p: number) => {
    const tenths = histogramPercentile(bins, p);
    return tenths === null ? null : roundMinutes(tenths / 10);
  };
  return partners.map((p) => {
    const s = states.get(p.id) ?? { delivered: 0, pending: 0, retrying: 0, failed: 0, refused: 0 };
    const bins = delays.get(p.id) ?? [];
    const rate = rates.find((x) => x.partner_id === p.id);
    return {
      partnerId: p.id,
      name: p.name,
      ...s,
      medianDelayMinutes: minutesAt(bins, 0.5),
      p90DelayMinutes: minutesAt(bins, 0.9),
      failureRate: rate && rate.answers > 0 ? rate.failures / rate.answers : null,
      answersLastHour: rate?.answers ?? 0,
      failureCutoff: SENDER_CUTOFF_RATE,
    };
  });
}

async function readImmediate(now: Date, dayStart: Date): Promise<OverviewImmediate> {
  const row = await countImmediateConfirmations(sqlDb(), now, dayStart).executeTakeFirst();
  return {
    enabled: Boolean(row?.enabled),
    confirmedToday: row?.confirmed_today ?? 0,
    waitingForCountersign: row?.waiting ?? 0,
    overdue: row?.overdue ?? 0,
  };
}
