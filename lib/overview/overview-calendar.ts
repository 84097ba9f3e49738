// Local calendar days of the store's time zone, computed by PostgreSQL (its time zone database is the one the
// figures are grouped with): local midnights by arithmetic on the local timestamp, so that a daylight-saving
// change keeps whole days.
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { isTimeZone } from "@/lib/alerts/alert-settings";
import { selectLocalDate, selectLocalMidnights } from "@/lib/overview/queries/calendar";
import type { Executor } from "@/lib/overview/queries/executor";

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
export async function localDateOf(q: Executor, tz: string, at: Date): Promise<{ date: string; hour: number }> {
  return selectLocalDate(q, tz, at).executeTakeFirstOrThrow();
}

/** The instant each local date begins, in the order given. */
export async function localMidnights(q: Executor, tz: string, dates: string[]): Promise<Date[]> {
  const row = await selectLocalMidnights(q, tz, dates).executeTakeFirstOrThrow();
  return dates.map((_, i) => (row as Record<string, Date>)[`d${i}`]!);
}
