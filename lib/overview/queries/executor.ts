// What the overview's statements run on: the Kysely builder (lib/db/kysely.ts) or a transaction of it, and the
// expressions they share to place an instant on the store's calendar.
import { sql, type Expression, type Kysely } from "kysely";
import type { DB } from "@/generated/kysely/tables";

/** sqlDb(), or a Kysely transaction of it (the rollup writes a day in one). */
export type Executor = Kysely<DB>;

/** A half-open range of instants, grouped by local date in `tz`; callers pass local midnights, or now. */
export type DayRange = { tz: string; from: Date; to: Date };

/** The local date (YYYY-MM-DD) of an instant in `tz`. */
export const localDate = (tz: string, at: Expression<Date>) =>
  sql<string>`to_char(${at} AT TIME ZONE ${tz}, 'YYYY-MM-DD')`;

/** The local hour (0–23) of an instant in `tz`. */
export const localHour = (tz: string, at: Expression<Date>) =>
  sql<number>`extract(hour FROM ${at} AT TIME ZONE ${tz})::int`;

/** count(*) as a number: pg answers int8 as a string. */
export const countRows = () => sql<number>`count(*)::int`;

/** GROUP BY the select list's first `n` columns: their expressions carry parameters (the time zone) that a
 * repeated expression would bind again, which PostgreSQL would not recognise as the same. */
export const byFirstColumns = (n: number) => Array.from({ length: n }, (_, i) => sql.lit(i + 1));
