// Local calendar days of the store's time zone, computed by PostgreSQL (its time zone database is the one the
// figures are grouped with): local midnights by arithmetic on the local timestamp, so that a daylight-saving
// change keeps whole days.
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { isTimeZone } from "@/lib/alerts/alert-settings";
import type { Queryable } from "@/lib/overview/overview-day-queries";

/** The time zone of the PHARMACY_NPI store's alert settings; UTC when it has none. */
export async function findStoreTimeZone(): Promise<string> {
  const store = await db().store.findUnique({ where: { npi: env().PHARMACY_NPI }, select: { timeZone: true } });
  return store && isTimeZone(store.timeZone) ? store.timeZone : "UTC";
}

/** "2026-11-27" shifted by whole days (calendar arithmetic, no time zone involved). */
export function shiftDate(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The local date (YYYY-MM-DD) and hour of an instant. */
export async function localDateOf(q: Queryable, tz: string, at: Date): Promise<{ date: string; hour: number }> {
  const [row] = await q.$queryRaw<{ date: string; hour: number }[]>`
    SELECT to_char(${at}::timestamptz AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date,
           extract(hour FROM ${at}::timestamptz AT TIME ZONE ${tz})::int AS hour`;
  return row!;
}

/** The instant each local date begins, in the order given. */
export async function localMidnights(q: Queryable, tz: string, dates: string[]): Promise<Date[]> {
  const rows = await q.$queryRaw<{ i: number; at: Date }[]>`
    SELECT i::int AS i, (d::date::timestamp AT TIME ZONE ${tz}) AS at
      FROM unnest(${dates}::text[]) WITH ORDINALITY AS x(d, i)`;
  return rows.sort((a, b) => a.i - b.i).map((r) => r.at);
}
