// The overview's figures. The closed days of the last 30 come from the worker's rollups
// (lib/overview/roll-up-overview.ts), a few hundred rows; the days after the last rolled-up one (today, and
// yesterday until 4 h past midnight, or more if no worker has run) are aggregated live by the same statements
// (lib/overview/overview-day-queries.ts), as are the figures of the moment: pending by age, today's decisions
// by hour, the partners' last hour and the immediate confirmations waiting. "Today" and the hours are the
// store's calendar: the time zone of PHARMACY_NPI's alert settings (UTC when it has none). `now` is an option
// so that tests pin the clock.
import { db } from "@/lib/db/prisma";
import { findStoreTimeZone, localDateOf, localMidnights, shiftDate } from "@/lib/overview/overview-calendar";
import {
  countArrivalsByHour,
  countCallbackDelays,
  countCallbackStates,
  countMissing,
  countOutcomes,
  measureDecisionTimes,
  type DayRange,
} from "@/lib/overview/overview-day-queries";
import { histogramPercentile, type HistogramBin } from "@/lib/overview/histogram-percentile";
import {
  AGE_BANDS,
  OVERVIEW_DAYS,
  USUAL_WEEKS,
  type AgeBand,
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

export async function getOverview(options: GetOverviewOptions): Promise<Overview> {
  const now = options.now ?? new Date();
  const tz = options.timeZone ?? (await findStoreTimeZone());
  const q = db();
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
    q.$queryRaw<{ band: AgeBand; count: number }[]>`
      SELECT CASE
               WHEN received_at > ${now}::timestamptz - interval '1 hour' THEN '0-1h'
               WHEN received_at > ${now}::timestamptz - interval '2 hours' THEN '1-2h'
               WHEN received_at > ${now}::timestamptz - interval '3 hours' THEN '2-3h'
               WHEN received_at > ${now}::timestamptz - interval '4 hours' THEN '3-4h'
               ELSE '4h+' END AS band,
             count(*)::int AS count
        FROM transfers
       WHERE status = 'RECEIVED' AND received_at <= ${now}::timestamptz
       GROUP BY 1`,
    q.$queryRaw<{ hour: number; decision: string; count: number }[]>`
      SELECT extract(hour FROM decided_at AT TIME ZONE ${tz})::int AS hour, decision::text AS decision,
             count(*)::int AS count
        FROM transfer_decisions
       WHERE decided_at >= ${dayStart} AND decided_at <= ${now}::timestamptz
       GROUP BY 1, 2`,
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
    rolledThrough
      ? db().$queryRaw<{ date: string; hour: number; count: number }[]>`
          SELECT to_char(day, 'YYYY-MM-DD') AS date, hour::int AS hour, arrivals AS count
            FROM overview_hours
           WHERE time_zone = ${tz} AND day = ANY(${usualDays}::date[]) AND day <= ${rolledThrough}::date`
      : Promise.resolve([]),
    countArrivalsByHour(db(), liveRange),
  ]);
  return new Map([...rolled, ...counted].map((r) => [`${r.date} ${r.hour}`, r.count]));
}

async function readDays(split: Split): Promise<OverviewDay[]> {
  const { tz, now, firstDay, rolledThrough, live } = split;
  const [rolled, times, missing] = await Promise.all([
    rolledThrough
      ? db().$queryRaw<{ date: string; decided: number; median: number | null; p90: number | null; missing: number }[]>`
          SELECT to_char(day, 'YYYY-MM-DD') AS date, decided, median_minutes AS median, p90_minutes AS p90, missing
            FROM overview_days
           WHERE time_zone = ${tz} AND day >= ${firstDay}::date AND day <= ${rolledThrough}::date`
      : Promise.resolve([]),
    measureDecisionTimes(db(), live),
    countMissing(db(), live, now),
  ]);
  const byDate = new Map(rolled.map((r) => [r.date, r]));
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
  const { tz, firstDay, rolledThrough, live } = split;
  const [rolled, counted] = await Promise.all([
    rolledThrough
      ? db().$queryRaw<{ decision: "APPROVED" | "REJECTED"; error_type: string; count: number }[]>`
          SELECT decision::text AS decision, error_type, sum(count)::int AS count
            FROM overview_outcomes
           WHERE time_zone = ${tz} AND day >= ${firstDay}::date AND day <= ${rolledThrough}::date
           GROUP BY 1, 2`
      : Promise.resolve([]),
    countOutcomes(db(), live),
  ]);
  const totals = new Map<string, OverviewOutcome>();
  for (const r of [...rolled, ...counted]) {
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
  const { tz, now, firstDay, rolledThrough, live } = split;
  const [partners, rolledStates, rolledDelays, liveStates, liveDelays, rates] = await Promise.all([
    db().$queryRaw<{ id: string; name: string }[]>`SELECT id, name FROM partners ORDER BY name, id`,
    rolledThrough
      ? db().$queryRaw<({ partner_id: string } & States)[]>`
          SELECT partner_id, sum(delivered)::int AS delivered, sum(pending)::int AS pending,
                 sum(retrying)::int AS retrying, sum(failed)::int AS failed, sum(refused)::int AS refused
            FROM overview_partner_days
           WHERE time_zone = ${tz} AND day >= ${firstDay}::date AND day <= ${rolledThrough}::date
           GROUP BY 1`
      : Promise.resolve([]),
    rolledThrough
      ? db().$queryRaw<{ partner_id: string; tenths: number; count: number }[]>`
          SELECT partner_id, tenths, sum(count)::int AS count
            FROM overview_callback_delays
           WHERE time_zone = ${tz} AND day >= ${firstDay}::date AND day <= ${rolledThrough}::date
           GROUP BY 1, 2`
      : Promise.resolve([]),
    countCallbackStates(db(), live),
    countCallbackDelays(db(), live),
    db().$queryRaw<{ partner_id: string; answers: number; failures: number }[]>`
      SELECT partner_id, sum(answers)::int AS answers, sum(failures)::int AS failures
        FROM partner_answer_counts
       WHERE minute > ${now}::timestamptz - interval '1 hour' AND minute <= ${now}::timestamptz
       GROUP BY partner_id`,
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
  const [row] = await db().$queryRaw<{ enabled: boolean; confirmed_today: number; waiting: number; overdue: number }[]>`
    SELECT EXISTS (SELECT 1 FROM immediate_confirm_policies WHERE enabled) AS enabled,
           (SELECT count(*)::int FROM immediate_confirmations
             WHERE confirmed_at >= ${dayStart} AND confirmed_at <= ${now}::timestamptz) AS confirmed_today,
           count(*)::int AS waiting,
           count(*) FILTER (WHERE c.confirmed_at < ${now}::timestamptz
                              - make_interval(hours => coalesce(p.verify_within_hours, 4)))::int AS overdue
      FROM immediate_confirmations c
      LEFT JOIN immediate_confirm_policies p ON p.store_id = c.store_id
     WHERE c.verified_at IS NULL AND c.confirmed_at <= ${now}::timestamptz`;
  return {
    enabled: row?.enabled ?? false,
    confirmedToday: row?.confirmed_today ?? 0,
    waitingForCountersign: row?.waiting ?? 0,
    overdue: row?.overdue ?? 0,
  };
}
