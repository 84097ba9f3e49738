// The wire format's dates as instants: the RFC 3339 date-times the schema accepts, and calendar dates
// (YYYY-MM-DD). Validation and the review checks compare them; both read them here.

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
