// The store's calendar as PostgreSQL computes it (its time zone database is the one the figures are grouped
// with): the local date and hour of an instant, and the instant local dates begin.
import { sql } from "kysely";
import type { Executor } from "@/lib/overview/queries/executor";

export function selectLocalDate(q: Executor, tz: string, at: Date) {
  return q.selectNoFrom([
    sql<string>`to_char(${at}::timestamptz AT TIME ZONE ${tz}, 'YYYY-MM-DD')`.as("date"),
    sql<number>`extract(hour FROM ${at}::timestamptz AT TIME ZONE ${tz})::int`.as("hour"),
  ]);
}

/** Each date's local midnight, as an instant: one row, column `d0` for the first date, `d1` for the next… */
export function selectLocalMidnights(q: Executor, tz: string, dates: string[]) {
  return q.selectNoFrom(dates.map((date, i) => sql<Date>`(${date}::date::timestamp AT TIME ZONE ${tz})`.as(`d${i}`)));
}
