// Federal limits on controlled-substance prescriptions, as pure arithmetic for the server and the UI.
// 21 CFR 1306.22(a): a Schedule III or IV prescription may not be filled or refilled more than six months
// after the date it was written, nor refilled more than five times. 1306.12(a): no Schedule II refills.
// Schedule V and non-controlled prescriptions have no federal limit: state law (the store's setting) applies.
import type { Schedule } from "@/lib/drugs/controlled-substances";

/** Schedule III/IV: months after the written date (21 CFR 1306.22(a)). */
export const CONTROLLED_EXPIRY_MONTHS = 6;
/** Schedule III/IV: refills after the first fill (21 CFR 1306.22(a)). */
export const MAX_CONTROLLED_REFILLS = 5;

/**
 * How many months after the written date a prescription stays valid: 6 for Schedule III and IV; otherwise
 * the store's months. Federal law sets no expiry for Schedule II (states do, and C-II is never approved
 * here) nor for Schedule V, so both take the store's months like a non-controlled prescription.
 */
export function validMonths(schedule: Schedule | null, nonControlledMonths: number): number {
  return schedule === "III" || schedule === "IV" ? CONTROLLED_EXPIRY_MONTHS : nonControlledMonths;
}

/**
 * The instant a prescription lapses: the written date plus `validMonths` calendar months, in the calendar
 * and at the wall-clock time it was written (its own UTC offset), the day clamped to the month's end
 * (Aug 31 + 6 months = Feb 28, or 29 in a leap year). `writtenDate` is an RFC 3339 date-time (or a bare
 * YYYY-MM-DD, taken as midnight UTC); anything else throws a RangeError.
 */
export function legalExpiry(args: {
  writtenDate: string;
  schedule: Schedule | null;
  nonControlledMonths: number;
}): Date {
  const t = parseDateTime(args.writtenDate);
  const months = validMonths(args.schedule, args.nonControlledMonths);
  const monthIndex = t.month - 1 + months;
  const year = t.year + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const wall = new Date(0);
  wall.setUTCFullYear(year, month, Math.min(t.day, lastDay));
  wall.setUTCHours(t.hour, t.minute, t.second, t.millisecond);
  return new Date(wall.getTime() - t.offsetMinutes * 60_000);
}

export type LawfulRefills = {
  /** Refills the prescriber wrote after the first fill: the interface's refillsAuthorized - 1. */
  writtenAfterFirst: number;
  /** Of those, what federal law allows: at most 5 for III/IV, none for II, all for V and non-controlled. */
  lawfulAfterFirst: number;
  /** Refills already dispensed (0 when the prescription was never filled). */
  used: number;
  /**
   * Refills after the first fill that may still lawfully be dispensed: the number every output states (the
   * record's "valid refills remaining", 1306.25(b)(3)(iv), and so the CSV export; the FHIR note). None
   * once a Schedule III/IV prescription is six months old.
   */
  refillsRemaining: number;
  /** The sender's own refillsRemaining: shown beside the lawful number, labelled, never passed on as lawful. */
  senderRefillsRemaining: number;
  /**
   * Dispensings still lawful: the lawful refills not yet used, plus the first fill itself when the
   * prescription was never filled. 0 means nothing is left to transfer.
   */
  lawfulRemaining: number;
  /** The prescriber wrote more refills than federal law allows. */
  capped: boolean;
  /** Never filled: lawfulRemaining includes the first fill. */
  firstFillPending: boolean;
  /** Past the six months of a Schedule III/IV prescription: nothing remains. */
  lapsed: boolean;
};

/**
 * Refills as federal law counts them, the one computation of the lawful number. The interface's
 * `refillsAuthorized` includes the first fill and `refillsRemaining` counts refills after it; DEA counts
 * refills after the first fill, so a Schedule III/IV prescription written with 11 refills allows 5, a patient
 * who has had 3 has 2 left whatever the prescription says, and none remain once it is six months old
 * (`lapsed`, judged by the caller on the store's calendar day).
 */
export function lawfulRefills(args: {
  schedule: Schedule | null;
  refillsAuthorized: number;
  refillsRemaining: number;
  filled: boolean;
  lapsed?: boolean;
}): LawfulRefills {
  const writtenAfterFirst = Math.max(0, args.refillsAuthorized - 1);
  const shortLived = args.schedule === "III" || args.schedule === "IV";
  const lawfulAfterFirst =
    args.schedule === "II" ? 0 : shortLived ? Math.min(writtenAfterFirst, MAX_CONTROLLED_REFILLS) : writtenAfterFirst;
  const used = args.filled ? clamp(writtenAfterFirst - args.refillsRemaining, 0, writtenAfterFirst) : 0;
  const firstFillPending = !args.filled;
  const lapsed = shortLived && args.lapsed === true;
  const refillsRemaining = lapsed ? 0 : Math.max(0, lawfulAfterFirst - used);
  return {
    writtenAfterFirst,
    lawfulAfterFirst,
    used,
    refillsRemaining,
    senderRefillsRemaining: args.refillsRemaining,
    lawfulRemaining: lapsed ? 0 : refillsRemaining + (firstFillPending ? 1 : 0),
    capped: writtenAfterFirst > lawfulAfterFirst,
    firstFillPending,
    lapsed,
  };
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|z|[+-]\d{2}:\d{2})?)?$/;

type WallTime = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  offsetMinutes: number;
};

function parseDateTime(value: string): WallTime {
  const m = DATE_TIME.exec(value.trim());
  if (!m) throw new RangeError(`legalExpiry expects an RFC 3339 date-time, got "${value}"`);
  const [, y = "", mo = "", d = "", h = "0", mi = "0", s = "0", fraction = "", zone = "Z"] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31) throw new RangeError(`legalExpiry: no such date "${value}"`);
  const offsetMinutes =
    zone === "Z" || zone === "z"
      ? 0
      : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return {
    year: Number(y),
    month,
    day,
    hour: Number(h),
    minute: Number(mi),
    second: Number(s),
    millisecond: Number(fraction.padEnd(3, "0").slice(0, 3)),
    offsetMinutes,
  };
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}
