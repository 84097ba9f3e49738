// The review checks from the drug's own rules (drug-review.ts): controlled schedule, allergy cross-check,
// legal expiry and controlled refills.
import { capitalize, refillsSentence, scheduleLabel, type DrugReview } from "@/lib/transfers/review/drug-review";
import { addDays, daysBetweenDates, listedAllergies, NO_KNOWN_ALLERGIES_TEXT } from "@/lib/interface/client-safe";
import type { ReviewCheck } from "@/lib/transfers/review/review-checks";
import { EXPIRY_WARNING_DAYS } from "@/lib/transfers/review/review-checks-fills";
import type { TransferRequest } from "@/lib/interface/client-safe";

/** The drug by its substance when the drug rules know it, else by the name the sender gave. */
export function drugName(request: TransferRequest, drug: DrugReview): string {
  return drug.match.substance ? capitalize(drug.match.substance) : request.prescription.medicationName;
}

/** The schedule from the drug itself (never from the prescriber's DEA number, which most prescribers have). */
export function scheduleCheck(request: TransferRequest, drug: DrugReview): ReviewCheck {
  const title = "Controlled substance";
  const { match, schedule } = drug;
  const firstFill = drug.blocks.find((b) => b.rule === "controlled-first-fill");
  if (schedule && firstFill) {
    return {
      id: "schedule",
      title,
      status: "fail",
      detail: `${scheduleLabel(schedule)}: ${match.basis} ${firstFill.detail}`,
    };
  }
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
  return { id: "schedule", title: "Not a controlled substance", status: "pass", detail: match.basis };
}

export function allergyCheck(request: TransferRequest, drug: DrugReview): ReviewCheck {
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
  const listed = listedAllergies(details);
  return {
    id: "allergy",
    title,
    status: "pass",
    detail: listed.length
      ? `${drugName(request, drug)} is in no drug class of the listed allergies (${listed.join(", ")}).`
      : `${NO_KNOWN_ALLERGIES_TEXT}.`,
  };
}

/**
 * The store's calendar day from which the expiry check warns (the first with fewer than EXPIRY_WARNING_DAYS
 * days left before the sender's expiration date), or null when it fails whatever the day (the sender's date is
 * past the legal expiry).
 * From that day on it never passes again: every later refusal (legal expiry, the sender's date passed)
 * comes on or after it. The classification stores it (classify-transfer.ts) so that the queue's filter
 * stays right as the days pass without rewriting the row.
 */
export function expiryWarnsFrom(drug: DrugReview): string | null {
  if (drug.senderExpiryAsWritten > drug.legalExpiry) return null;
  return addDays(drug.senderExpiry, 1 - EXPIRY_WARNING_DAYS);
}

/**
 * Expiry, one line: the stricter of the legal expiry (drug-review.ts) and the sender's expiration date
 * decides, both on the store's calendar day. A refusal (either date passed) says which fact refused it.
 */
export function expiryCheck(drug: DrugReview): ReviewCheck {
  const title = "Expiry";
  const blocked = drug.blocks.find(
    (b) => b.rule === "sender-expiry" || b.rule === "legal-expiry" || b.rule === "controlled-six-months",
  );
  if (blocked) return { id: "expiry", title, status: "fail", detail: blocked.detail };
  const legal = `the legal expiry is ${drug.legalExpiry} (${drug.legalExpiryBasis})`;
  const sender = `the sender's expiration date is ${drug.senderExpiry}`;
  const warnsFrom = expiryWarnsFrom(drug);
  if (warnsFrom === null) {
    return {
      id: "expiry",
      title,
      status: "fail",
      detail: `Valid only until ${drug.legalExpiry}: ${legal}, earlier than the sender's expiration date ${drug.senderExpiry}.`,
    };
  }
  const days = daysBetweenDates(drug.today, drug.senderExpiry);
  const left = days === 0 ? "today is its last day" : `in ${days} ${days === 1 ? "day" : "days"}`;
  return {
    id: "expiry",
    title,
    status: drug.today >= warnsFrom ? "warn" : "pass",
    detail: `Valid until ${drug.senderExpiry}, ${left}: ${sender}; ${legal}.`,
  };
}

/** Schedule III-IV: at most 5 refills after the first fill (21 CFR 1306.22). */
export function controlledLimitsCheck(drug: DrugReview): ReviewCheck {
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
