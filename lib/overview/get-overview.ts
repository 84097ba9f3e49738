// The overview's figures: a handful of aggregate queries, each a range scan of an index on the timestamps
// (transfers.received_at, transfer_decisions.decided_at, callbacks' (partner_id, created_at), the pending
// transfers' (status, received_at)), never the request JSON. "Today" and the hours are the store's calendar:
// the time zone of PHARMACY_NPI's alert settings (UTC when it has none). `now` is an option so that tests
// pin the clock.
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { isTimeZone } from "@/lib/alerts/alert-settings";
import {
  AGE_BANDS,
  OVERVIEW_DAYS,
  USUAL_WEEKS,
  type AgeBand,
  type Overview,
  type OverviewDay,
  type OverviewOutcome,
  type OverviewPartner,
} from "@/lib/overview/overview-views";
import { SENDER_WINDOW_MS } from "@/lib/transfers/sender-window";

export type GetOverviewOptions = {
  now?: Date;
  /** Partner figures are for admins: a pharmacist's overview leaves them out (and does not read them). */
  withPartners: boolean;
  /** Defaults to the time zone of the PHARMACY_NPI store. */
  timeZone?: string;
};

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const roundMinutes = (m: number | null) => (m === null ? null : Math.round(m * 10) / 10);

async function storeTimeZone(): Promise<string> {
  const store = await db().store.findUnique({ where: { npi: env().PHARMACY_NPI }, select: { timeZone: true } });
  return store && isTimeZone(store.timeZone) ? store.timeZone : "UTC";
}

export async function getOverview(options: GetOverviewOptions): Promise<Overview> {
  const now = options.now ?? new Date();
  const tz = options.timeZone ?? (await storeTimeZone());
  const windowSeconds = SENDER_WINDOW_MS / 1000;
  // Local midnights as timestamptz: arithmetic on the local timestamp, so a DST change keeps whole days.
  const localDay = (daysBack: number) =>
    db().$queryRaw<{ at: Date; date: string; hour: number }[]>`
      SELECT ((date_trunc('day', ${now}::timestamptz AT TIME ZONE ${tz}) - make_interval(days => ${daysBack}::int))
               AT TIME ZONE ${tz}) AS at,
             to_char(date_trunc('day', ${now}::timestamptz AT TIME ZONE ${tz}), 'YYYY-MM-DD') AS date,
             extract(hour FROM ${now}::timestamptz AT TIME ZONE ${tz})::int AS hour`;
  const [todayRows, periodRows] = await Promise.all([localDay(0), localDay(OVERVIEW_DAYS - 1)]);
  const todayStart = todayRows[0]!;
  const periodStart = periodRows[0]!;
  const dayStart = todayStart.at;
  const since = periodStart.at;

  const [arrivals, pending, decisionsToday, days, missing, outcomes, partners] = await Promise.all([
    db().$queryRaw<{ k: number; hour: number; count: number }[]>`
      WITH bounds AS (
        SELECT k,
               (date_trunc('day', ${now}::timestamptz AT TIME ZONE ${tz}) - make_interval(days => 7 * k))
                 AT TIME ZONE ${tz} AS from_at,
               (date_trunc('day', ${now}::timestamptz AT TIME ZONE ${tz}) - make_interval(days => 7 * k - 1))
                 AT TIME ZONE ${tz} AS to_at
          FROM generate_series(0, ${USUAL_WEEKS}::int) AS k)
      SELECT b.k::int AS k, extract(hour FROM t.received_at AT TIME ZONE ${tz})::int AS hour, count(*)::int AS count
        FROM bounds b
        JOIN transfers t ON t.received_at >= b.from_at AND t.received_at < least(b.to_at, ${now}::timestamptz)
       GROUP BY 1, 2`,
    db().$queryRaw<{ band: AgeBand; count: number }[]>`
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
    db().$queryRaw<{ hour: number; decision: string; count: number }[]>`
      SELECT extract(hour FROM decided_at AT TIME ZONE ${tz})::int AS hour, decision::text AS decision,
             count(*)::int AS count
        FROM transfer_decisions
       WHERE decided_at >= ${dayStart} AND decided_at <= ${now}::timestamptz
       GROUP BY 1, 2`,
    db().$queryRaw<{ date: string; decided: number; median: number | null; p90: number | null }[]>`
      SELECT date, count(*)::int AS decided,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY minutes) AS median,
             percentile_cont(0.9) WITHIN GROUP (ORDER BY minutes) AS p90
        FROM (SELECT to_char(d.decided_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date,
                     extract(epoch FROM d.decided_at - (SELECT t.received_at FROM transfers t WHERE t.id = d.transfer_id))
                       / 60 AS minutes
                FROM transfer_decisions d
               WHERE d.decided_at >= ${since} AND d.decided_at <= ${now}::timestamptz) AS decided
       GROUP BY 1`,
    // Missing for the sender: received at least 4 h ago, and by 4 h after arrival either undecided, or its
    // callback (when the partner has one) not delivered. The callback and, above, the arrival time are read
    // by scalar subqueries, one primary-key or unique-index lookup per row of the 30 days: as joins, the
    // planner hashed the whole callbacks or transfers table (seconds at 1,000,000 rows).
    db().$queryRaw<{ date: string; count: number }[]>`
      SELECT to_char(t.received_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date, count(*)::int AS count
        FROM transfers t
       WHERE t.received_at >= ${since}
         AND t.received_at <= ${now}::timestamptz - make_interval(secs => ${windowSeconds}::int)
         AND (t.decided_at IS NULL
              OR t.decided_at > t.received_at + make_interval(secs => ${windowSeconds}::int)
              OR coalesce((SELECT c.delivered_at IS NULL
                                  OR c.delivered_at > t.received_at + make_interval(secs => ${windowSeconds}::int)
                             FROM callbacks c WHERE c.transfer_id = t.id), false))
       GROUP BY 1`,
    db().$queryRaw<{ decision: "APPROVED" | "REJECTED"; error_type: string | null; count: number }[]>`
      SELECT decision::text AS decision, error_type AS error_type, count(*)::int AS count
        FROM transfer_decisions
       WHERE decided_at >= ${since} AND decided_at <= ${now}::timestamptz
       GROUP BY 1, 2
       ORDER BY 3 DESC, 1, 2`,
    options.withPartners ? readPartners(now, since) : Promise.resolve(undefined),
  ]);

  const arrivalsOf = (k: number, hour: number) => arrivals.find((a) => a.k === k && a.hour === hour)?.count ?? 0;
  const pendingByAge = AGE_BANDS.map((band) => ({ band, count: pending.find((p) => p.band === band)?.count ?? 0 }));
  const decided = (hour: number, decision: string) =>
    decisionsToday.find((d) => d.hour === hour && d.decision === decision)?.count ?? 0;

  const dayList: OverviewDay[] = [];
  for (let i = OVERVIEW_DAYS - 1; i >= 0; i--) {
    const date = shiftDate(todayStart.date, -i);
    const d = days.find((x) => x.date === date);
    dayList.push({
      date,
      decided: d?.decided ?? 0,
      medianMinutes: roundMinutes(d?.median ?? null),
      p90Minutes: roundMinutes(d?.p90 ?? null),
      missing: missing.find((m) => m.date === date)?.count ?? 0,
    });
  }

  return {
    generatedAt: now.toISOString(),
    today: {
      date: todayStart.date,
      hour: todayStart.hour,
      timeZone: tz,
      arrivals: HOURS.map((hour) => ({
        hour,
        today: arrivalsOf(0, hour),
        usual:
          Math.round(
            (Array.from({ length: USUAL_WEEKS }, (_, i) => arrivalsOf(i + 1, hour)).reduce((a, b) => a + b, 0) /
              USUAL_WEEKS) *
              10,
          ) / 10,
      })),
      pendingByAge,
      lapsingWithinHour: pendingByAge.find((p) => p.band === "3-4h")!.count,
      decisions: HOURS.map((hour) => ({
        hour,
        approved: decided(hour, "APPROVED"),
        rejected: decided(hour, "REJECTED"),
      })),
    },
    last30Days: {
      days: dayList,
      outcomes: outcomes.map((x): OverviewOutcome => ({
        decision: x.decision,
        errorType: x.error_type,
        count: x.count,
      })),
    },
    ...(partners ? { partners } : {}),
    immediateConfirmation: null,
  };
}

/** "2026-11-27" shifted by whole days (calendar arithmetic, no time zone involved). */
function shiftDate(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function readPartners(now: Date, since: Date): Promise<OverviewPartner[]> {
  const [rows, rates] = await Promise.all([
    db().$queryRaw<
      {
        id: string;
        name: string;
        delivered: number;
        pending: number;
        retrying: number;
        failed: number;
        refused: number;
        median: number | null;
        p90: number | null;
      }[]
    >`
      SELECT p.id, p.name, c.delivered, c.pending, c.retrying, c.failed, c.refused, c.median, c.p90
        FROM partners p
        CROSS JOIN LATERAL (
          SELECT count(*) FILTER (WHERE status = 'DELIVERED')::int AS delivered,
                 count(*) FILTER (WHERE status = 'PENDING' AND attempt_count = 0)::int AS pending,
                 count(*) FILTER (WHERE status = 'PENDING' AND attempt_count > 0)::int AS retrying,
                 count(*) FILTER (WHERE status IN ('FAILED', 'GONE'))::int AS failed,
                 count(*) FILTER (WHERE status = 'REFUSED')::int AS refused,
                 percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at) / 60)
                   FILTER (WHERE delivered_at IS NOT NULL) AS median,
                 percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at) / 60)
                   FILTER (WHERE delivered_at IS NOT NULL) AS p90
            FROM callbacks
           WHERE partner_id = p.id AND created_at >= ${since} AND created_at <= ${now}::timestamptz) AS c
       ORDER BY p.name, p.id`,
    db().$queryRaw<{ partner_id: string; answers: number; failures: number }[]>`
      SELECT partner_id, sum(answers)::int AS answers, sum(failures)::int AS failures
        FROM partner_answer_counts
       WHERE minute > ${now}::timestamptz - interval '1 hour' AND minute <= ${now}::timestamptz
       GROUP BY partner_id`,
  ]);
  return rows.map((r) => {
    const rate = rates.find((x) => x.partner_id === r.id);
    return {
      partnerId: r.id,
      name: r.name,
      delivered: r.delivered,
      pending: r.pending,
      retrying: r.retrying,
      failed: r.failed,
      refused: r.refused,
      medianDelayMinutes: roundMinutes(r.median),
      p90DelayMinutes: roundMinutes(r.p90),
      failureRate: rate && rate.answers > 0 ? rate.failures / rate.answers : null,
      answersLastHour: rate?.answers ?? 0,
    };
  });
}
