// The review checks from the drug's own rules (drug-review.ts): controlled schedule, allergy cross-check,
// legal expiry and controlled refills.
import { capitalize, refillsSentence, scheduleLabel, type DrugReview } from "@/lib/transfers/drug-review";
import type { ReviewCheck } from "@/lib/transfers/review-checks";
import type { TransferRequest } from "@/lib/transfers/wire";

/** The drug by its substance when the drug rules know it, else by the name the sender gave. */
export function drugName(request: TransferRequest, drug: DrugReview): string {
  return drug.match.substance ? capitalize(drug.match.substance) : request.prescription.medicationName;
}

/** The schedule from the drug itself (never from the prescriber's DEA number, which most prescribers have). */
export function scheduleCheck(request: TransferRequest, drug: DrugReview): ReviewCheck {
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
  return {
    id: "allergy",
    title,
    status: "pass",
    detail: details.allergies.length
      ? `${drugName(request, drug)} is in no drug class of the listed allergies (${details.allergies.join(", ")}).`
      : "No known allergies.",
  };
}

export function legalExpiryCheck(request: TransferRequest, drug: DrugReview): ReviewCheck {
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
