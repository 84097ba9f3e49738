// The wire format's dates as instants: the RFC 3339 date-times the schema accepts, and calendar dates
// (YYYY-MM-DD), and a store's calendar day. Validation and the review checks compare them; both read them here.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * Milliseconds since the epoch of an RFC 3339 date-time that the schema has already accepted. Parsed by
 * hand rather than with Date.parse, whose acceptance of long fractions and years < 100 varies.
 */
export function instantOf(dateTime: string): number {
  const m = RFC3339.exec(dateTime);
  if (!m) throw new RangeError("instantOf expects an RFC 3339 date-time accepted by the schema");
  const [, y, mo, d, h, mi, s, fraction = "", sign, oh = "0", om = "0"] = m;
  const ms = Number(fraction.padEnd(3, "0").slice(0, 3));
  const t = new Date(0);
  t.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  t.setUTCHours(Number(h), Number(mi), Number(s), ms);
  const offsetMinutes = sign === undefined ? 0 : (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om));
  return t.getTime() - offsetMinutes * 60_000;
}

/** Midnight UTC at the start of a calendar date (YYYY-MM-DD), in milliseconds since the epoch. */
export function startOfDayUtc(date: string): number {
  const t = new Date(0);
  t.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return t.getTime();
}

/** Days already read per zone, by instant; a page of transfers asks for the same few (its "now", its dates) again. */
const MAX_DAYS_PER_ZONE = 1_024;
const zones = new Map<string, { format: Intl.DateTimeFormat; days: Map<number, string> }>();

/**
 * The calendar day (YYYY-MM-DD) that `at` falls on in an IANA time zone: a store's "today". Every date rule
 * counts the store's own days (a pharmacy in Illinois at 22:30 is still on the day UTC has left behind).
 */
export function calendarDayIn(at: Date | number, timeZone: string): string {
  let zone = zones.get(timeZone);
  if (!zone) {
    const format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    zone = { format, days: new Map() };
    zones.set(timeZone, zone);
  }
  const ms = typeof at === "number" ? at : at.getTime();
  const known = zone.days.get(ms);
  if (known !== undefined) return known;
  let [year, month, day] = ["", "", ""];
  for (const part of zone.format.formatToParts(ms)) {
    if (part.type === "year") year = part.value;
    else if (part.type === "month") month = part.value;
    else if (part.type === "day") day = part.value;
  }
  const date = `${year.padStart(4, "0")}-${month}-${day}`;
  if (zone.days.size >= MAX_DAYS_PER_ZONE) zone.days.clear();
  zone.days.set(ms, date);
  return date;
}

/** Whole calendar days from one YYYY-MM-DD date to another (negative when `to` is earlier). */
export function daysBetweenDates(from: string, to: string): number {
  return Math.round((startOfDayUtc(to) - startOfDayUtc(from)) / 86_400_000);
}

/** The calendar date `days` days after a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  return new Date(startOfDayUtc(date) + days * 86_400_000).toISOString().slice(0, 10);
}
