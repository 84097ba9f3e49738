// The overview's rollup tables (lib/overview/roll-up-overview.ts says what they hold and when they are
// written): the state, the lock every write holds, a day's rows written and deleted, and the reads of the
// rolled-up days the overview merges with the live ones (lib/overview/get-overview.ts). Dates are passed as
// YYYY-MM-DD text and cast in SQL, so no JavaScript time zone touches a calendar day.
import { sql } from "kysely";
import type { Executor } from "@/lib/overview/queries/executor";

const ROLLUP_LOCK = 7324032;

export const ROLLUP_TABLES = [
  "overview_hours",
  "overview_days",
  "overview_outcomes",
  "overview_partner_days",
  "overview_callback_delays",
] as const;
export type RollupTable = (typeof ROLLUP_TABLES)[number];

const asDate = (date: string) => sql<Date>`${date}::date`;
const dayText = sql<string>`to_char(day, 'YYYY-MM-DD')`;

/** Every write to the rollups holds this lock to the end of its transaction. */
export function lockRollups(q: Executor) {
  return sql`SELECT pg_advisory_xact_lock(${ROLLUP_LOCK}::bigint)`.execute(q);
}

export function selectRollupState(q: Executor, tz: string) {
  return q
    .selectFrom("overview_rollup_state")
    .select([sql<string>`to_char(complete_through, 'YYYY-MM-DD')`.as("complete_through"), "callbacks_swept_at"])
    .where("time_zone", "=", tz);
}

export function upsertCompleteThrough(q: Executor, tz: string, date: string) {
  return q
    .insertInto("overview_rollup_state")
    .values({ time_zone: tz, complete_through: asDate(date) })
    .onConflict((oc) =>
      oc.column("time_zone").doUpdateSet((eb) => ({ complete_through: eb.ref("excluded.complete_through") })),
    );
}

export function updateCallbacksSweptAt(q: Executor, tz: string, at: Date) {
  return q.updateTable("overview_rollup_state").set({ callbacks_swept_at: at }).where("time_zone", "=", tz);
}

/** A rollup table's rows of one time zone, of the days from `first` to `last` inclusive (null: unbounded). */
export function deleteRollupDays(q: Executor, table: RollupTable, tz: string, days: { first?: string; last?: string }) {
  let statement = q.deleteFrom(table).where("time_zone", "=", tz);
  if (days.first !== undefined) statement = statement.where("day", ">=", asDate(days.first));
  if (days.last !== undefined) statement = statement.where("day", "<=", asDate(days.last));
  return statement;
}

export function deleteRollupState(q: Executor, tz: string) {
  return q.deleteFrom("overview_rollup_state").where("time_zone", "=", tz);
}

export type HourRow = { day: string; hour: number; arrivals: number };
export type DayRow = {
  day: string;
  decided: number;
  medianMinutes: number | null;
  p90Minutes: number | null;
  missing: number;
};
export type OutcomeRollupRow = { day: string; decision: "APPROVED" | "REJECTED"; errorType: string; count: number };
export type PartnerDayRow = {
  day: string;
  partnerId: string;
  delivered: number;
  pending: number;
  retrying: number;
  failed: number;
  refused: number;
};
export type DelayRollupRow = { day: string; partnerId: string; tenths: number; count: number };

export function insertHours(q: Executor, tz: string, rows: HourRow[]) {
  return q
    .insertInto("overview_hours")
    .values(rows.map((r) => ({ time_zone: tz, day: asDate(r.day), hour: r.hour, arrivals: r.arrivals })));
}

export function insertDay(q: Executor, tz: string, r: DayRow) {
  return q.insertInto("overview_days").values({
    time_zone: tz,
    day: asDate(r.day),
    decided: r.decided,
    median_minutes: r.medianMinutes,
    p90_minutes: r.p90Minutes,
    missing: r.missing,
  });
}

export function insertOutcomes(q: Executor, tz: string, rows: OutcomeRollupRow[]) {
  return q.insertInto("overview_outcomes").values(
    rows.map((r) => ({
      time_zone: tz,
      day: asDate(r.day),
      decision: r.decision,
      error_type: r.errorType,
      count: r.count,
    })),
  );
}

export function insertPartnerDays(q: Executor, tz: string, rows: PartnerDayRow[]) {
  return q.insertInto("overview_partner_days").values(
    rows.map((r) => ({
      time_zone: tz,
      day: asDate(r.day),
      partner_id: r.partnerId,
      delivered: r.delivered,
      pending: r.pending,
      retrying: r.retrying,
      failed: r.failed,
      refused: r.refused,
    })),
  );
}

export function insertCallbackDelays(q: Executor, tz: string, rows: DelayRollupRow[]) {
  return q.insertInto("overview_callback_delays").values(
    rows.map((r) => ({
      time_zone: tz,
      day: asDate(r.day),
      partner_id: r.partnerId,
      tenths: r.tenths,
      count: r.count,
    })),
  );
}

/** The rolled-up days the overview reads: those of its window up to the last rolled up. */
export type RolledDays = { tz: string; firstDay: string; rolledThrough: string };

/** Arrivals by hour on the given days (the usual weekdays), rolled up through `rolledThrough`. */
export function selectRolledArrivals(q: Executor, tz: string, days: string[], rolledThrough: string) {
  return q
    .selectFrom("overview_hours")
    .select([dayText.as("date"), sql<number>`hour::int`.as("hour"), "arrivals as count"])
    .where("time_zone", "=", tz)
    .where("day", "=", sql<Date>`ANY(${days}::date[])`)
    .where("day", "<=", asDate(rolledThrough));
}

export function selectRolledDays(q: Executor, { tz, firstDay, rolledThrough }: RolledDays) {
  return q
    .selectFrom("overview_days")
    .select([dayText.as("date"), "decided", "median_minutes as median", "p90_minutes as p90", "missing"])
    .where("time_zone", "=", tz)
    .where("day", ">=", asDate(firstDay))
    .where("day", "<=", asDate(rolledThrough));
}

export function selectRolledOutcomes(q: Executor, { tz, firstDay, rolledThrough }: RolledDays) {
  return q
    .selectFrom("overview_outcomes")
    .select((eb) => [
      sql<"APPROVED" | "REJECTED">`${eb.ref("decision")}::text`.as("decision"),
      "error_type",
      sql<number>`sum(count)::int`.as("count"),
    ])
    .where("time_zone", "=", tz)
    .where("day", ">=", asDate(firstDay))
    .where("day", "<=", asDate(rolledThrough))
    .groupBy(["decision", "error_type"]);
}

export function selectRolledPartnerStates(q: Executor, { tz, firstDay, rolledThrough }: RolledDays) {
  const total = (column: "delivered" | "pending" | "retrying" | "failed" | "refused") =>
    sql<number>`sum(${sql.ref(column)})::int`.as(column);
  return q
    .selectFrom("overview_partner_days")
    .select(["partner_id", total("delivered"), total("pending"), total("retrying"), total("failed"), total("refused")])
    .where("time_zone", "=", tz)
    .where("day", ">=", asDate(firstDay))
    .where("day", "<=", asDate(rolledThrough))
    .groupBy("partner_id");
}

export function selectRolledDelays(q: Executor, { tz, firstDay, rolledThrough }: RolledDays) {
  return q
    .selectFrom("overview_callback_delays")
    .select(["partner_id", "tenths", sql<number>`sum(count)::int`.as("count")])
    .where("time_zone", "=", tz)
    .where("day", ">=", asDate(firstDay))
    .where("day", "<=", asDate(rolledThrough))
    .groupBy(["partner_id", "tenths"]);
}
