// Quiet hours in a store's own time zone, with nothing but Intl: whether the store is open at an instant,
// and when it next opens. A threshold crossed while the store is closed becomes due at the next opening;
// the sender's 4-hour clock does not stop meanwhile.
import { minutesOfDay, type OpeningHours } from "@/lib/alerts/alert-settings";

type LocalParts = { year: number; month: number; day: number; weekday: number; minutes: number };

const WEEKDAY_INDEX: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      weekday: "short",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function localParts(at: Date, timeZone: string): LocalParts {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAY_INDEX[parts.weekday ?? "Sun"] ?? 0,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** The instant at local wall-clock time (y, m, d, minutes) in `timeZone` (a skipped DST hour resolves forward). */
function zonedInstant(year: number, month: number, day: number, minutes: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, 0, minutes);
  const offsetAt = (t: number) => {
    const p = localParts(new Date(t), timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, 0, p.minutes) - Math.floor(t / 60_000) * 60_000;
  };
  let t = wall - offsetAt(wall);
  t = wall - offsetAt(t);
  return new Date(t);
}

export function isOpenAt(at: Date, hours: OpeningHours | null, timeZone: string): boolean {
  if (!hours) return true;
  const local = localParts(at, timeZone);
  const day = hours[local.weekday];
  return !!day && local.minutes >= minutesOfDay(day.open) && local.minutes < minutesOfDay(day.close);
}

/** `at` itself when the store is open then, else its next opening (within a week: at least one day is open). */
export function nextOpenInstant(at: Date, hours: OpeningHours | null, timeZone: string): Date {
  if (isOpenAt(at, hours, timeZone) || !hours) return at;
  const local = localParts(at, timeZone);
  for (let offset = 0; offset <= 7; offset++) {
    const day = hours[(local.weekday + offset) % 7];
    if (!day) continue;
    const date = new Date(Date.UTC(local.year, local.month - 1, local.day + offset));
    const opening = zonedInstant(
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      minutesOfDay(day.open),
      timeZone,
    );
    if (opening.getTime() > at.getTime()) return opening;
  }
  return at;
}

/** When the alert for `thresholdMinutes` is due: the crossing itself, or the next opening after it. */
export function alertDueAt(
  receivedAt: Date,
  thresholdMinutes: number,
  hours: OpeningHours | null,
  timeZone: string,
): Date {
  return nextOpenInstant(new Date(receivedAt.getTime() + thresholdMinutes * 60_000), hours, timeZone);
}

/** A transfer that arrived while its store was closed: shown as "arrived after hours". */
export function arrivedAfterHours(receivedAt: Date, hours: OpeningHours | null, timeZone: string): boolean {
  return !isOpenAt(receivedAt, hours, timeZone);
}

/**
 * The instant `minutes` of opening time after `start`: the clock runs only while the store is open (a limit
 * "within 4 hours" of a Friday 15:00 confirmation, open 09:00-17:00 on weekdays, ends Monday 11:00).
 */
export function addOpenMinutes(start: Date, minutes: number, hours: OpeningHours | null, timeZone: string): Date {
  if (!hours) return new Date(start.getTime() + minutes * 60_000);
  let at = start;
  let leftMs = minutes * 60_000;
  // Each pass uses up one open stretch; a week has at most 7 of them.
  for (let pass = 0; pass < 7 * 60; pass++) {
    at = nextOpenInstant(at, hours, timeZone);
    const local = localParts(at, timeZone);
    const day = hours[local.weekday];
    if (!day) return at;
    const close = zonedInstant(local.year, local.month, local.day, minutesOfDay(day.close), timeZone);
    const openMs = close.getTime() - at.getTime();
    if (leftMs <= openMs) return new Date(at.getTime() + leftMs);
    leftMs -= openMs;
    at = close;
  }
  return at;
}
