// The review checks of the product dispensed: quantity against days supply, the DAW code against
// canSubstitute, and a dispensed NDC other than the prescribed one; with the DAW code table they explain.
import { capitalize } from "@/lib/transfers/review/drug-review";
import { formatQuantity, quantityUnit } from "@/lib/transfers/review/quantity-units";
import type { ReviewCheck } from "@/lib/transfers/review/review-checks";
import type { TransferRequest } from "@/lib/interface/client-safe";

/** Tablets or capsules per day above which the quantity is flagged against the days supply. */
export const MAX_UNITS_PER_DAY = 8;
const UNIT_FORMS = /(tab|cap)/i;

/** NCPDP Dispense As Written (product selection) codes, field 408-D8. */
export const DAW_CODES: Readonly<Record<number, string>> = {
  0: "No product selection indicated (generic substitution permitted)",
  1: "Substitution not allowed by prescriber",
  2: "Substitution allowed – patient requested product dispensed",
  3: "Substitution allowed – pharmacist selected product dispensed",
  4: "Substitution allowed – generic drug not in stock",
  5: "Substitution allowed – brand drug dispensed as a generic",
  6: "Override",
  7: "Substitution not allowed – brand drug mandated by law",
  8: "Substitution allowed – generic drug not available in marketplace",
  9: "Substitution allowed by prescriber but plan requests brand",
};
/** Codes that forbid substitution, and codes that presume it is allowed. 2, 6 and 9 go either way. */
export const DAW_NO_SUBSTITUTION = [1, 7];
export const DAW_SUBSTITUTION_ALLOWED = [0, 3, 4, 5, 8];

export function explainDaw(code: number | null): string {
  if (code === null) return "Not given";
  return `${code} – ${DAW_CODES[code] ?? "unknown code"}`;
}

export function dawConflict(code: number | null, canSubstitute: boolean): string | null {
  if (code === null) return null;
  if (DAW_NO_SUBSTITUTION.includes(code) && canSubstitute) {
    return `DAW ${code} forbids substitution, but canSubstitute is true`;
  }
  if (DAW_SUBSTITUTION_ALLOWED.includes(code) && !canSubstitute) {
    return `DAW ${code} allows substitution, but canSubstitute is false`;
  }
  return null;
}

export function quantityCheck(request: TransferRequest): ReviewCheck {
  const rx = request.prescription;
  const unit = quantityUnit(rx.drugForm);
  const perFill = formatQuantity(rx.quantityDispensed, rx.drugForm);
  const perDay = rx.daysSupply > 0 ? rx.quantityDispensed / rx.daysSupply : Number.POSITIVE_INFINITY;
  const problems: string[] = [];
  if (rx.quantityDispensed > rx.quantityWritten) {
    problems.push(
      `the quantity per fill (${perFill}) is more than the quantity written (${formatQuantity(rx.quantityWritten, rx.drugForm)})`,
    );
  }
  if (UNIT_FORMS.test(rx.drugForm) && rx.daysSupply > 0 && perDay > MAX_UNITS_PER_DAY) {
    problems.push(
      `${formatQuantity(perDay, rx.drugForm)} a day is more than ${MAX_UNITS_PER_DAY} ${unit.plural} a day: compare with the sig`,
    );
  }
  // A day's use means something for tablets or mL, not for grams of a cream or a count of inhalers.
  const perDayText =
    unit.perDayMeaningful && Number.isFinite(perDay) ? `, ${formatQuantity(perDay, rx.drugForm)} a day` : "";
  return {
    id: "quantity",
    title: "Quantity vs days supply",
    status: problems.length ? "warn" : "pass",
    detail: problems.length
      ? `${capitalize(problems.join("; "))}.`
      : `${capitalize(perFill)} per fill for ${rx.daysSupply} days${perDayText} (${formatQuantity(rx.quantityWritten, rx.drugForm)} written).`,
  };
}

export function dawCheck(request: TransferRequest): ReviewCheck {
  const rx = request.prescription;
  const conflict = dawConflict(rx.dawCode, rx.canSubstitute);
  const substitution = rx.canSubstitute ? "substitution allowed" : "substitution not allowed";
  return {
    id: "daw",
    title: "DAW vs substitution",
    status: conflict ? "warn" : rx.dawCode === null ? "info" : "pass",
    detail: conflict
      ? `${conflict}: clarify with the sender before dispensing.`
      : `DAW ${explainDaw(rx.dawCode)}; ${substitution}.`,
  };
}

export function ndcCheck(request: TransferRequest): ReviewCheck {
  const rx = request.prescription;
  const neverFilled = rx.firstFilledDate === null;
  if (rx.dispensedNDC !== null && rx.dispensedNDC !== rx.prescribedNDC) {
    return {
      id: "ndc",
      title: neverFilled ? "NDC to dispense" : "Dispensed NDC",
      status: "warn",
      detail: neverFilled
        ? `Never dispensed, but the sender names NDC ${rx.dispensedNDC} to dispense instead of the prescribed NDC ${rx.prescribedNDC}: another product or package.`
        : `Dispensed NDC ${rx.dispensedNDC} differs from prescribed NDC ${rx.prescribedNDC}: another product or package was dispensed.`,
    };
  }
  if (neverFilled)
    return {
      id: "ndc",
      title: "NDC to dispense",
      status: "pass",
      detail: `Never dispensed; the prescribed NDC is ${rx.prescribedNDC}.`,
    };
  return {
    id: "ndc",
    title: "Dispensed NDC",
    status: "pass",
    detail: `Dispensed as prescribed (NDC ${rx.prescribedNDC}).`,
  };
}
