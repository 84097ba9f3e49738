// The review checks of the prescription's fills: refill arithmetic, a fill history that cannot be true, and a
// refill asked for too soon, counted in calendar days in the store's time zone (the sender's fill instants
// read as the store's days).
import { addDays, calendarDayIn, daysBetweenDates, instantOf } from "@/lib/interface/client-safe";
import { roundQuantity } from "@/lib/transfers/review/quantity-units";
import type { ReviewCheck } from "@/lib/transfers/review/review-checks";
import type { TransferRequest } from "@/lib/interface/client-safe";

/** A prescription expiring within this many days is flagged. */
export const EXPIRY_WARNING_DAYS = 30;
/** The default early-refill allowance (EARLY_REFILL_ALLOWANCE_PERCENT / 100). */
export const DEFAULT_EARLY_REFILL_ALLOWANCE = 0.25;

export function refillCheck(request: TransferRequest): ReviewCheck {
  const rx = request.prescription;
  const refillsAfterFirst = rx.refillsAuthorized - 1;
  if (rx.refillsAuthorized < 1 || rx.refillsRemaining < 0 || rx.refillsRemaining > refillsAfterFirst) {
    return {
      id: "refills",
      title: "Refill arithmetic",
      status: "fail",
      detail: `${rx.refillsAuthorized} authorized (including the first fill) cannot leave ${rx.refillsRemaining} refills remaining.`,
    };
  }
  const used = refillsAfterFirst - rx.refillsRemaining;
  const filled = rx.firstFilledDate === null ? "Never filled" : `Filled ${1 + used} of ${rx.refillsAuthorized} times`;
  if (rx.firstFilledDate !== null && rx.refillsRemaining === 0) {
    return {
      id: "refills",
      title: "Refill arithmetic",
      status: "fail",
      detail: `${filled}: no refills remain to transfer.`,
    };
  }
  return {
    id: "refills",
    title: "Refill arithmetic",
    status: "pass",
    detail: `${filled}; ${rx.refillsRemaining} of ${refillsAfterFirst} refills after the first fill remain (${rx.refillsAuthorized} authorized including the first fill).`,
  };
}

/** Fills the refill counts say happened, against the span of the fill dates: a history that cannot be true. */
export function fillHistoryCheck(request: TransferRequest, allowance: number, timeZone: string): ReviewCheck {
  const rx = request.prescription;
  const title = "Fill history";
  const fills = rx.refillsAuthorized - rx.refillsRemaining;
  if (rx.firstFilledDate === null) {
    if (fills > 1) {
      return {
        id: "fill-history",
        title,
        status: "warn",
        detail: `Never filled (no first fill date), yet ${rx.refillsRemaining} of ${rx.refillsAuthorized - 1} refills remain, as if it had been filled ${fills} times: confirm the fills with the sender.`,
      };
    }
    return {
      id: "fill-history",
      title,
      status: "pass",
      detail: `Never filled: the first fill and all ${rx.refillsRemaining} refills after it remain.`,
    };
  }
  const first = calendarDayIn(instantOf(rx.firstFilledDate), timeZone);
  if (fills < 2) return { id: "fill-history", title, status: "pass", detail: `Filled once, on ${first}.` };
  if (rx.lastFilledDate === null) {
    return {
      id: "fill-history",
      title,
      status: "warn",
      detail: `Filled ${fills} times by the refill counts, but no last fill date was sent: confirm the fills with the sender.`,
    };
  }
  const last = calendarDayIn(instantOf(rx.lastFilledDate), timeZone);
  const spanDays = daysBetweenDates(first, last);
  const neededDays = (fills - 1) * rx.daysSupply * (1 - allowance);
  const between = `Filled ${fills} times between ${first} and ${last} (${roundQuantity(spanDays)} ${spanDays === 1 ? "day" : "days"})`;
  if (spanDays < neededDays) {
    return {
      id: "fill-history",
      title,
      status: "warn",
      detail: `${between}, but ${fills - 1} refills of a ${rx.daysSupply}-day supply take at least ${roundQuantity(neededDays)} days, even each ${Math.round(allowance * 100)} % early: this fill history cannot be true. Confirm the fill dates and refills with the sender.`,
    };
  }
  return {
    id: "fill-history",
    title,
    status: "pass",
    detail: `${between}: plausible for a ${rx.daysSupply}-day supply.`,
  };
}

/**
 * Refill too soon: the next fill is due at the last fill + days supply × (1 − allowance). Before that date
 * it is a note with the due date (a pharmacist may still transfer; the fill waits). None for a prescription
 * never filled or with no refill left.
 */
export function nextFillCheck(
  request: TransferRequest,
  today: string,
  timeZone: string,
  allowance = DEFAULT_EARLY_REFILL_ALLOWANCE,
): ReviewCheck | null {
  const rx = request.prescription;
  const last = rx.lastFilledDate ?? rx.firstFilledDate;
  if (last === null || rx.refillsRemaining < 1) return null;
  // Due on the store's calendar day: the last fill's day plus the days supply less the allowance, whole days.
  const lastDay = calendarDayIn(instantOf(last), timeZone);
  const dueDate = addDays(lastDay, Math.ceil(rx.daysSupply * (1 - allowance)));
  const basis = `last filled ${lastDay} with a ${rx.daysSupply}-day supply, refills allowed ${Math.round(allowance * 100)} % early`;
  if (today < dueDate) {
    return {
      id: "next-fill",
      title: "Refill too soon",
      status: "info",
      detail: `The next fill is due on ${dueDate} (${basis}): filling it before then is too soon.`,
    };
  }
  return {
    id: "next-fill",
    title: "Next fill",
    status: "pass",
    detail: `The next fill has been due since ${dueDate} (${basis}).`,
  };
}
