// The overview's per-day figures over a range of local days, grouped by local date in the store's time zone.
// The worker rolls closed days up with these (lib/overview/roll-up-overview.ts) and the overview reads the
// days not rolled up yet with the same statements (lib/overview/get-overview.ts), so both count alike. Each
// is a range scan of an index on a timestamp (transfers.received_at, transfer_decisions.decided_at,
// callbacks' (partner_id, created_at)); none reads the request JSON.
import { sql, type Expression, type SqlBool } from "kysely";
import {
  byFirstColumns,
  countRows,
  localDate,
  localHour,
  type DayRange,
  type Executor,
} from "@/lib/overview/queries/executor";
import { SENDER_WINDOW_MS } from "@/lib/interface";

const WINDOW_SECONDS = SENDER_WINDOW_MS / 1000;
/** The instant the sender's 4-hour window after `at` closes. */
const windowAfter = (at: Expression<Date>) => sql<Date>`${at} + make_interval(secs => ${WINDOW_SECONDS}::int)`;

export function countArrivalsByHour(q: Executor, { tz, from, to }: DayRange) {
  return q
    .selectFrom("transfers")
    .select((eb) => [
      localDate(tz, eb.ref("received_at")).as("date"),
      localHour(tz, eb.ref("received_at")).as("hour"),
      countRows().as("count"),
    ])
    .where("received_at", ">=", from)
    .where("received_at", "<", to)
    .groupBy(byFirstColumns(2));
}

/**
 * Decisions of each day and their minutes from arrival (median, 90th percentile). The arrival is read by a
 * scalar subquery, one primary-key lookup per decision: as a join the planner hashed the whole table.
 */
export function measureDecisionTimes(q: Executor, { tz, from, to }: DayRange) {
  return q
    .selectFrom((db) =>
      db
        .selectFrom("transfer_decisions as d")
        .select((eb) => [
          localDate(tz, eb.ref("d.decided_at")).as("date"),
          sql<number>`extract(epoch FROM ${eb.ref("d.decided_at")} - (${eb
            .selectFrom("transfers as t")
            .select("t.received_at")
            .whereRef("t.id", "=", "d.transfer_id")})) / 60`.as("minutes"),
        ])
        .where("d.decided_at", ">=", from)
        .where("d.decided_at", "<", to)
        .as("decided"),
    )
    .select((eb) => [
      "decided.date",
      countRows().as("decided"),
      sql<number | null>`percentile_cont(0.5) WITHIN GROUP (ORDER BY ${eb.ref("decided.minutes")})`.as("median"),
      sql<number | null>`percentile_cont(0.9) WITHIN GROUP (ORDER BY ${eb.ref("decided.minutes")})`.as("p90"),
    ])
    .groupBy(byFirstColumns(1));
}

/**
 * Missing for the sender, by day of arrival: received at least 4 h before `now`, and by 4 h after arrival
 * either undecided, or its callback (when the partner has one) not delivered. Final once a transfer is 4 h old.
 */
export function countMissing(q: Executor, { tz, from, to }: DayRange, now: Date) {
  return q
    .selectFrom("transfers as t")
    .select((eb) => [localDate(tz, eb.ref("t.received_at")).as("date"), countRows().as("count")])
    .where("t.received_at", ">=", from)
    .where("t.received_at", "<", to)
    .where("t.received_at", "<=", sql<Date>`${now}::timestamptz - make_interval(secs => ${WINDOW_SECONDS}::int)`)
    .where((eb) =>
      eb.or([
        eb("t.decided_at", "is", null),
        eb("t.decided_at", ">", windowAfter(eb.ref("t.received_at"))),
        sql<boolean>`coalesce((${eb
          .selectFrom("callbacks as c")
          .select((cb) =>
            sql<boolean>`${cb.ref("c.delivered_at")} IS NULL OR ${cb.ref("c.delivered_at")} > ${windowAfter(cb.ref("t.received_at"))}`.as(
              "late",
            ),
          )
          .whereRef("c.transfer_id", "=", "t.id")}), false)`,
      ]),
    )
    .groupBy(byFirstColumns(1));
}

export function countOutcomes(q: Executor, { tz, from, to }: DayRange) {
  return q
    .selectFrom("transfer_decisions")
    .select((eb) => [
      localDate(tz, eb.ref("decided_at")).as("date"),
      sql<"APPROVED" | "REJECTED">`${eb.ref("decision")}::text`.as("decision"),
      "error_type",
      countRows().as("count"),
    ])
    .where("decided_at", ">=", from)
    .where("decided_at", "<", to)
    .groupBy(byFirstColumns(3));
}

/** Callbacks by the day they were created, per partner, in their state now; retrying: PENDING after an attempt. */
export function countCallbackStates(q: Executor, { tz, from, to }: DayRange) {
  return q
    .selectFrom("partners as p")
    .crossJoinLateral((eb) =>
      eb
        .selectFrom("callbacks")
        .select((cb) => {
          const countWhere = (where: Expression<SqlBool>) => sql<number>`(count(*) FILTER (WHERE ${where}))::int`;
          return [
            localDate(tz, cb.ref("created_at")).as("date"),
            countWhere(cb("status", "=", "DELIVERED")).as("delivered"),
            countWhere(cb.and([cb("status", "=", "PENDING"), cb("attempt_count", "=", 0)])).as("pending"),
            countWhere(cb.and([cb("status", "=", "PENDING"), cb("attempt_count", ">", 0)])).as("retrying"),
            countWhere(cb("status", "in", ["FAILED", "GONE"])).as("failed"),
            countWhere(cb("status", "=", "REFUSED")).as("refused"),
          ];
        })
        .whereRef("callbacks.partner_id", "=", "p.id")
        .where("created_at", ">=", from)
        .where("created_at", "<", to)
        .groupBy(byFirstColumns(1))
        .as("c"),
    )
    .select(["c.date", "p.id as partner_id", "c.delivered", "c.pending", "c.retrying", "c.failed", "c.refused"]);
}

/** Delivered callbacks by creation day and partner, counted by created-to-delivered delay in tenths of a minute. */
export function countCallbackDelays(q: Executor, { tz, from, to }: DayRange) {
  return q
    .selectFrom("partners as p")
    .crossJoinLateral((eb) =>
      eb
        .selectFrom("callbacks")
        .select((cb) => [
          localDate(tz, cb.ref("created_at")).as("date"),
          sql<number>`round(extract(epoch FROM ${cb.ref("delivered_at")} - ${cb.ref("created_at")}) / 6)::int`.as(
            "tenths",
          ),
          countRows().as("count"),
        ])
        .whereRef("callbacks.partner_id", "=", "p.id")
        .where("created_at", ">=", from)
        .where("created_at", "<", to)
        .where("delivered_at", "is not", null)
        .groupBy(byFirstColumns(2))
        .as("c"),
    )
    .select(["c.date", "p.id as partner_id", "c.tenths", "c.count"]);
}
