// The overview's per-day figures over a range of local days, grouped by local date in the store's time zone.
// The worker rolls closed days up with these (lib/overview/roll-up-overview.ts) and the overview reads the
// days not rolled up yet with the same statements (lib/overview/get-overview.ts), so both count alike. Each
// is a range scan of an index on a timestamp (transfers.received_at, transfer_decisions.decided_at,
// callbacks' (partner_id, created_at)); none reads the request JSON. `from` and `to` bound the range
// half-open; callers pass local midnights, or now.
import type { Prisma } from "@/generated/prisma/client";
import { SENDER_WINDOW_MS } from "@/lib/interface";

/** The Prisma client or a transaction of it. */
export type Queryable = Pick<Prisma.TransactionClient, "$queryRaw">;
export type DayRange = { tz: string; from: Date; to: Date };

const WINDOW_SECONDS = SENDER_WINDOW_MS / 1000;

export type ArrivalHourRow = { date: string; hour: number; count: number };
export type DecisionTimeRow = { date: string; decided: number; median: number | null; p90: number | null };
export type DateCountRow = { date: string; count: number };
export type OutcomeRow = { date: string; decision: "APPROVED" | "REJECTED"; error_type: string | null; count: number };
export type PartnerStateRow = {
  date: string;
  partner_id: string;
  delivered: number;
  pending: number;
  retrying: number;
  failed: number;
  refused: number;
};
export type DelayRow = { date: string; partner_id: string; tenths: number; count: number };

export function countArrivalsByHour(q: Queryable, { tz, from, to }: DayRange): Promise<ArrivalHourRow[]> {
  return q.$queryRaw`
    SELECT to_char(received_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date,
           extract(hour FROM received_at AT TIME ZONE ${tz})::int AS hour, count(*)::int AS count
      FROM transfers
     WHERE received_at >= ${from} AND received_at < ${to}
     GROUP BY 1, 2`;
}

/**
 * Decisions of each day and their minutes from arrival (median, 90th percentile). The arrival is read by a
 * scalar subquery, one primary-key lookup per decision: as a join the planner hashed the whole table.
 */
export function measureDecisionTimes(q: Queryable, { tz, from, to }: DayRange): Promise<DecisionTimeRow[]> {
  return q.$queryRaw`
    SELECT date, count(*)::int AS decided,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY minutes) AS median,
           percentile_cont(0.9) WITHIN GROUP (ORDER BY minutes) AS p90
      FROM (SELECT to_char(d.decided_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date,
                   extract(epoch FROM d.decided_at - (SELECT t.received_at FROM transfers t WHERE t.id = d.transfer_id))
                     / 60 AS minutes
              FROM transfer_decisions d
             WHERE d.decided_at >= ${from} AND d.decided_at < ${to}) AS decided
     GROUP BY 1`;
}

/**
 * Missing for the sender, by day of arrival: received at least 4 h before `now`, and by 4 h after arrival
 * either undecided, or its callback (when the partner has one) not delivered. Final once a transfer is 4 h old.
 */
export function countMissing(q: Queryable, { tz, from, to }: DayRange, now: Date): Promise<DateCountRow[]> {
  return q.$queryRaw`
    SELECT to_char(t.received_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date, count(*)::int AS count
      FROM transfers t
     WHERE t.received_at >= ${from} AND t.received_at < ${to}
       AND t.received_at <= ${now}::timestamptz - make_interval(secs => ${WINDOW_SECONDS}::int)
       AND (t.decided_at IS NULL
            OR t.decided_at > t.received_at + make_interval(secs => ${WINDOW_SECONDS}::int)
            OR coalesce((SELECT c.delivered_at IS NULL
                                OR c.delivered_at > t.received_at + make_interval(secs => ${WINDOW_SECONDS}::int)
                           FROM callbacks c WHERE c.transfer_id = t.id), false))
     GROUP BY 1`;
}

export function countOutcomes(q: Queryable, { tz, from, to }: DayRange): Promise<OutcomeRow[]> {
  return q.$queryRaw`
    SELECT to_char(decided_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date, decision::text AS decision,
           error_type, count(*)::int AS count
      FROM transfer_decisions
     WHERE decided_at >= ${from} AND decided_at < ${to}
     GROUP BY 1, 2, 3`;
}

/** Callbacks by the day they were created, per partner, in their state now; retrying: PENDING after an attempt. */
export function countCallbackStates(q: Queryable, { tz, from, to }: DayRange): Promise<PartnerStateRow[]> {
  return q.$queryRaw`
    SELECT c.date, p.id AS partner_id, c.delivered, c.pending, c.retrying, c.failed, c.refused
      FROM partners p
     CROSS JOIN LATERAL (
       SELECT to_char(created_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date,
              count(*) FILTER (WHERE status = 'DELIVERED')::int AS delivered,
              count(*) FILTER (WHERE status = 'PENDING' AND attempt_count = 0)::int AS pending,
              count(*) FILTER (WHERE status = 'PENDING' AND attempt_count > 0)::int AS retrying,
              count(*) FILTER (WHERE status IN ('FAILED', 'GONE'))::int AS failed,
              count(*) FILTER (WHERE status = 'REFUSED')::int AS refused
         FROM callbacks
        WHERE partner_id = p.id AND created_at >= ${from} AND created_at < ${to}
        GROUP BY 1) AS c`;
}

/** Delivered callbacks by creation day and partner, counted by created-to-delivered delay in tenths of a minute. */
export function countCallbackDelays(q: Queryable, { tz, from, to }: DayRange): Promise<DelayRow[]> {
  return q.$queryRaw`
    SELECT c.date, p.id AS partner_id, c.tenths, c.count
      FROM partners p
     CROSS JOIN LATERAL (
       SELECT to_char(created_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date,
              round(extract(epoch FROM delivered_at - created_at) / 6)::int AS tenths, count(*)::int AS count
         FROM callbacks
        WHERE partner_id = p.id AND created_at >= ${from} AND created_at < ${to} AND delivered_at IS NOT NULL
        GROUP BY 1, 2) AS c`;
}
