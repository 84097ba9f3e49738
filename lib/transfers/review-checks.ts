// Automated checks a pharmacist sees on the review screen, each explained in words. The intake
// (validate-request.ts) has already refused requests that break the interface's rules; these say what
// deserves a second look; the drug's own rules (drug-review.ts) come in as checks too, and those that refuse approval are
// enforced by the server. Pure functions over the stored request (no server-only imports: client
// components use the constants). The queue's "warnings" filter is the same rules in SQL
// (review-checks-sql.ts); an integration test holds the two together.
import { scheduleLabel, refillsSentence, type DrugReview } from "@/lib/transfers/drug-review";
import { hasDeaFormat, isValidDea, isValidNpi } from "@/lib/transfers/identifiers";
import { instantOf } from "@/lib/transfers/dates";
import { formatQuantity, quantityUnit, roundQuantity } from "@/lib/transfers/quantity-units";
import type { TransferRequest } from "@/lib/transfers/wire";

export type CheckStatus = "pass" | "info" | "warn" | "fail";
export type ReviewCheck = { id: string; title: string; status: CheckStatus; detail: string };

/** A prescription expiring within this many days is flagged. */
export const EXPIRY_WARNING_DAYS = 30;
/** Tablets or capsules per day above which the quantity is flagged against the days supply. */
export const MAX_UNITS_PER_DAY = 8;
const UNIT_FORMS = /(tab|cap)/i;
const DAY_MS = 86_400_000;
/** The default early-refill allowance (EARLY_REFILL_ALLOWANCE_PERCENT / 100). */
export const DEFAULT_EARLY_REFILL_ALLOWANCE = 0.25;

export type ReviewCheckOptions = {
  /** How early a refill may come, as a fraction of the days supply (0.25: a 30-day supply may be refilled after 22.5 days). */
  earlyRefillAllowance?: number;
};

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

export function daysUntil(dateTime: string, now: Date): number {
  return Math.floor((instantOf(dateTime) - now.getTime()) / DAY_MS);
}

export function reviewChecks(
  request: TransferRequest,
  now: Date,
  drug: DrugReview,
  options: ReviewCheckOptions = {},
): ReviewCheck[] {
  const allowance = options.earlyRefillAllowance ?? DEFAULT_EARLY_REFILL_ALLOWANCE;
  const nextFill = nextFillCheck(request, now, allowance);
  return [
    scheduleCheck(request, drug),
    allergyCheck(request, drug),
    npiCheck(request),
    deaCheck(request, drug),
    expiryCheck(request, now),
    legalExpiryCheck(request, drug),
    refillCheck(request),
    fillHistoryCheck(request, allowance),
    ...(nextFill ? [nextFill] : []),
    ...(drug.refills ? [controlledLimitsCheck(drug)] : []),
    quantityCheck(request),
    dawCheck(request),
    ndcCheck(request),
  ];
}

export function countProblems(checks: readonly ReviewCheck[]): { warnings: number; failures: number } {
  return {
    warnings: checks.filter((c) => c.status === "warn").length,
    failures: checks.filter((c) => c.status === "fail").length,
  };
}

function npiCheck(request: TransferRequest): ReviewCheck {
  const npis: [string, string][] = [
    ["Prescriber", request.prescriber.npi],
    ["Sending pharmacy", request.sendingPharmacy.npi],
    ["Receiving pharmacy", request.receivingPharmacy.npi],
  ];
  const bad = npis.filter(([, npi]) => !isValidNpi(npi));
  return {
    id: "npi",
    title: "NPI check digits",
    status: bad.length ? "fail" : "pass",
    detail: bad.length
      ? `${bad.map(([who, npi]) => `${who} NPI ${npi}`).join(", ")} fails the Luhn check digit (prefix 80840).`
      : `${npis.map(([who, npi]) => `${who} ${npi}`).join("; ")}: each passes the Luhn check digit (prefix 80840).`,
  };
}

function deaCheck(request: TransferRequest, drug: DrugReview): ReviewCheck {
  if (drug.schedule && request.prescriber.dea === null) {
    return {
      id: "dea",
      title: "Prescriber DEA number",
      status: "fail",
      detail: `${drugName(request, drug)} is ${scheduleLabel(drug.schedule)}, but the prescriber sent no DEA number: a controlled-substance prescription must carry the prescriber's DEA registration (21 CFR 1306.05). Get it from the sender before approving.`,
    };
  }
  const deas: [string, string | null][] = [
    ["Prescriber", request.prescriber.dea],
    ["Sending pharmacy", request.sendingPharmacy.dea],
    ["Receiving pharmacy", request.receivingPharmacy.dea],
  ];
  const present = deas.filter((d): d is [string, string] => d[1] !== null);
  if (present.length === 0)
    return { id: "dea", title: "DEA check digits", status: "info", detail: "No DEA numbers were sent." };
  const bad = present.filter(([, dea]) => !isValidDea(dea));
  if (bad.length) {
    return {
      id: "dea",
      title: "DEA check digits",
      status: "fail",
      detail: `${bad.map(([who, dea]) => `${who} DEA ${dea}`).join(", ")}: the check digit does not match.`,
    };
  }
  const initial = prescriberDeaInitialMismatch(request);
  return {
    id: "dea",
    title: "DEA check digits",
    status: initial ? "warn" : "pass",
    detail:
      `${present.map(([who, dea]) => `${who} ${dea}`).join("; ")}: each check digit matches.` +
      (initial ? ` ${initial}` : ""),
  };
}

/** For a practitioner's DEA number the second letter is the initial of the registrant's last name. */
function prescriberDeaInitialMismatch(request: TransferRequest): string | null {
  const dea = request.prescriber.dea;
  if (!dea || !hasDeaFormat(dea) || !"ABFGM".includes(dea[0]!) || dea[1] === "9") return null;
  const initial = request.prescriber.name.lastName.trim()[0]?.toUpperCase();
  if (!initial || initial === dea[1]) return null;
  return `The prescriber DEA's second letter (${dea[1]}) is not the initial of the last name (${initial}): confirm the prescriber.`;
}

function expiryCheck(request: TransferRequest, now: Date): ReviewCheck {
  const expiration = request.prescription.expirationDate;
  const days = daysUntil(expiration, now);
  const date = expiration.slice(0, 10);
  if (instantOf(expiration) <= now.getTime()) {
    return {
      id: "expiry",
      title: "Expiry",
      status: "fail",
      detail: `Expired on ${date}: it cannot be transferred (reject with RX_EXPIRED).`,
    };
  }
  if (instantOf(expiration) - now.getTime() < EXPIRY_WARNING_DAYS * DAY_MS) {
    return {
      id: "expiry",
      title: "Expiry",
      status: "warn",
      detail: `Expires on ${date}, in ${days} ${days === 1 ? "day" : "days"}.`,
    };
  }
  return { id: "expiry", title: "Expiry", status: "pass", detail: `Expires on ${date}, in ${days} days.` };
}

function refillCheck(request: TransferRequest): ReviewCheck {
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

function quantityCheck(request: TransferRequest): ReviewCheck {
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

/** Fills the refill counts say happened, against the span of the fill dates: a history that cannot be true. */
function fillHistoryCheck(request: TransferRequest, allowance: number): ReviewCheck {
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
  const first = rx.firstFilledDate.slice(0, 10);
  if (fills < 2) return { id: "fill-history", title, status: "pass", detail: `Filled once, on ${first}.` };
  if (rx.lastFilledDate === null) {
    return {
      id: "fill-history",
      title,
      status: "warn",
      detail: `Filled ${fills} times by the refill counts, but no last fill date was sent: confirm the fills with the sender.`,
    };
  }
  const last = rx.lastFilledDate.slice(0, 10);
  const spanDays = (instantOf(rx.lastFilledDate) - instantOf(rx.firstFilledDate)) / DAY_MS;
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
  now: Date,
  allowance = DEFAULT_EARLY_REFILL_ALLOWANCE,
): ReviewCheck | null {
  const rx = request.prescription;
  const last = rx.lastFilledDate ?? rx.firstFilledDate;
  if (last === null || rx.refillsRemaining < 1) return null;
  const due = new Date(instantOf(last) + rx.daysSupply * (1 - allowance) * DAY_MS);
  const dueDate = due.toISOString().slice(0, 10);
  const basis = `last filled ${last.slice(0, 10)} with a ${rx.daysSupply}-day supply, refills allowed ${Math.round(allowance * 100)} % early`;
  if (now < due) {
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

function dawCheck(request: TransferRequest): ReviewCheck {
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

function ndcCheck(request: TransferRequest): ReviewCheck {
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

function drugName(request: TransferRequest, drug: DrugReview): string {
  return drug.match.substance ? capitalize(drug.match.substance) : request.prescription.medicationName;
}

/** The schedule from the drug itself (never from the prescriber's DEA number, which most prescribers have). */
function scheduleCheck(request: TransferRequest, drug: DrugReview): ReviewCheck {
  const title = "Controlled substance";
  const { match, schedule } = drug;
  if (schedule === "II") {
    const block = drug.blocks.find((b) => b.rule === "schedule-ii");
    return {
      id: "schedule",
      title,
      status: "fail",
      detail: `${scheduleLabel("II")}: ${match.basis} ${block?.detail ?? ""}`.trim(),
    };
  }
  if (schedule) {
    const onceRule =
      "Schedule III–V: may be transferred once between pharmacies that do not share a real-time database (21 CFR 1306.25); confirm it was not transferred before.";
    return { id: "schedule", title, status: "info", detail: `${scheduleLabel(schedule)}: ${match.basis} ${onceRule}` };
  }
  if (match.status === "unknown") {
    return {
      id: "schedule",
      title,
      status: "warn",
      detail: match.basis,
    };
  }
  return { id: "schedule", title, status: "pass", detail: match.basis };
}

function allergyCheck(request: TransferRequest, drug: DrugReview): ReviewCheck {
  const title = "Allergy cross-check";
  const details = request.patient.allergyDetails;
  const danger = drug.allergyWarnings.filter((w) => w.severity === "danger");
  if (drug.allergyWarnings.length > 0) {
    return {
      id: "allergy",
      title,
      status: danger.length ? "fail" : "warn",
      detail: `${drug.allergyWarnings.map((w) => w.message).join(". ")}.`,
    };
  }
  if (details.allergiesDescriptor === "NOT_AVAILABLE") {
    return { id: "allergy", title, status: "info", detail: "The sender has no allergy information: ask the patient." };
  }
  return {
    id: "allergy",
    title,
    status: "pass",
    detail: details.allergies.length
      ? `${drugName(request, drug)} is in no drug class of the listed allergies (${details.allergies.join(", ")}).`
      : "No known allergies.",
  };
}

function legalExpiryCheck(request: TransferRequest, drug: DrugReview): ReviewCheck {
  const title = "Legal expiry";
  const sender = request.prescription.expirationDate.slice(0, 10);
  const blocked = drug.blocks.find((b) => b.rule === "legal-expiry" || b.rule === "controlled-six-months");
  if (blocked) return { id: "legal-expiry", title, status: "fail", detail: blocked.detail };
  if (sender > drug.legalExpiry) {
    return {
      id: "legal-expiry",
      title,
      status: "fail",
      detail: `The sender's expiration date ${sender} is later than the legal expiry ${drug.legalExpiry} (${drug.legalExpiryBasis}): the prescription is valid only until ${drug.legalExpiry}.`,
    };
  }
  return {
    id: "legal-expiry",
    title,
    status: "pass",
    detail: `Legally valid until ${drug.legalExpiry} (${drug.legalExpiryBasis}); the sender's expiration date is ${sender}.`,
  };
}

/** Schedule III-IV: at most 5 refills after the first fill (21 CFR 1306.22). */
function controlledLimitsCheck(drug: DrugReview): ReviewCheck {
  const refills = drug.refills!;
  const title = "Controlled refills";
  const blocked = drug.blocks.find((b) => b.rule === "controlled-refills");
  if (blocked) return { id: "controlled-refills", title, status: "fail", detail: blocked.detail };
  return {
    id: "controlled-refills",
    title,
    status: refills.capped ? "fail" : "pass",
    detail: refills.capped
      ? `${refillsSentence(refills)} Only the lawful number may be transferred (21 CFR 1306.22).`
      : refillsSentence(refills),
  };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
