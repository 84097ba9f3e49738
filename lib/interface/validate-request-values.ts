// Validation's second stage, the values: a structurally valid request whose identifiers, states, allergies,
// quantities, refills and dates must also make sense (INVALID_INFO), and its expiry (RX_EXPIRED).
import { hasDeaFormat, isUsStateCode, isValidDea, isValidNpi } from "@/lib/interface/identifiers";
import { isNoKnownAllergiesEntry } from "@/lib/interface/no-known-allergies";
import type { FieldIssue, ValidationContext } from "@/lib/interface/validate-request";
import type { Address, TransferRequest } from "@/lib/interface/wire";
import { instantOf, startOfDayUtc } from "@/lib/interface/dates";

/** Tolerated difference between the sender's clock and ours when judging "in the future". */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

export function semanticIssues(request: TransferRequest, ctx: ValidationContext): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const invalid = (path: string, message: string) => issues.push({ path, type: "INVALID_INFO", message });

  checkIdentifiers(request, ctx, invalid);
  checkStates(request, invalid);
  checkAllergies(request, invalid);
  checkQuantitiesAndRefills(request, invalid);
  checkDates(request, ctx, invalid);

  const expiration = instantOf(request.prescription.expirationDate);
  if (expiration <= ctx.now.getTime()) {
    issues.push({
      path: "prescription.expirationDate",
      type: "RX_EXPIRED",
      message: "has passed: the prescription is expired",
    });
  }
  return issues;
}

type Report = (path: string, message: string) => void;

function checkIdentifiers(request: TransferRequest, ctx: ValidationContext, invalid: Report): void {
  const npis: [string, string][] = [
    ["prescriber.npi", request.prescriber.npi],
    ["sendingPharmacy.npi", request.sendingPharmacy.npi],
    ["receivingPharmacy.npi", request.receivingPharmacy.npi],
  ];
  for (const [path, npi] of npis) {
    if (!/^[12]/.test(npi)) {
      invalid(path, "is not a valid NPI: it must start with 1 or 2");
    } else if (!isValidNpi(npi)) {
      invalid(path, "is not a valid NPI: the check digit does not match");
    } else if (path === "receivingPharmacy.npi" && !ctx.storeNpis.has(npi)) {
      invalid(path, "is not a pharmacy that this service receives transfers for");
    }
  }

  const deas: [string, string | null][] = [
    ["prescriber.dea", request.prescriber.dea],
    ["sendingPharmacy.dea", request.sendingPharmacy.dea],
    ["receivingPharmacy.dea", request.receivingPharmacy.dea],
  ];
  for (const [path, dea] of deas) {
    if (dea === null) continue;
    if (!hasDeaFormat(dea)) {
      invalid(path, "is not a valid DEA number: it must be 2 capital letters followed by 7 digits");
    } else if (!isValidDea(dea)) {
      invalid(path, "is not a valid DEA number: the check digit does not match");
    }
  }
}

function checkStates(request: TransferRequest, invalid: Report): void {
  const addresses: [string, Address][] = [
    ["patient.address", request.patient.address],
    ["prescriber.address", request.prescriber.address],
    ["sendingPharmacy.address", request.sendingPharmacy.address],
    ["receivingPharmacy.address", request.receivingPharmacy.address],
  ];
  for (const [path, address] of addresses) {
    if (!isUsStateCode(address.state)) invalid(`${path}.state`, "is not a US state or territory code");
  }
}

function checkAllergies(request: TransferRequest, invalid: Report): void {
  const { allergiesDescriptor, allergies } = request.patient.allergyDetails;
  const path = "patient.allergyDetails.allergies";
  if (allergiesDescriptor === "KNOWN_ALLERGIES_INCLUDED" && allergies.length === 0) {
    invalid(path, "must list at least one allergy when allergiesDescriptor is KNOWN_ALLERGIES_INCLUDED");
  }
  if (allergiesDescriptor === "NO_KNOWN_ALLERGIES") {
    // "NKDA", "none"… agree with the descriptor (no-known-allergies.ts); a real allergy contradicts it.
    const real = allergies.filter((a) => !isNoKnownAllergiesEntry(a));
    if (real.length > 0) {
      invalid(
        path,
        `lists an allergy (${JSON.stringify(real[0])}${real.length > 1 ? ` and ${real.length - 1} more` : ""}) while patient.allergyDetails.allergiesDescriptor is NO_KNOWN_ALLERGIES: send KNOWN_ALLERGIES_INCLUDED with the allergies, or no allergies`,
      );
    }
  } else if (allergiesDescriptor === "NOT_AVAILABLE" && allergies.length > 0) {
    invalid(path, "must be empty when patient.allergyDetails.allergiesDescriptor is NOT_AVAILABLE");
  }
}

function checkQuantitiesAndRefills(request: TransferRequest, invalid: Report): void {
  const rx = request.prescription;
  if (rx.daysSupply <= 0) invalid("prescription.daysSupply", "must be greater than 0");
  if (rx.quantityWritten <= 0) invalid("prescription.quantityWritten", "must be greater than 0");
  if (rx.quantityDispensed <= 0) invalid("prescription.quantityDispensed", "must be greater than 0");
  if (rx.dispensedNDC !== null && rx.dispensedNDC === rx.prescribedNDC) {
    invalid("prescription.dispensedNDC", "must be null when it equals prescription.prescribedNDC");
  }

  // refillsAuthorized counts the first fill; refillsRemaining counts the fills after it.
  if (rx.refillsAuthorized < 1) {
    invalid("prescription.refillsAuthorized", "must be at least 1 (it counts the first fill)");
  }
  if (rx.refillsRemaining < 0) {
    invalid("prescription.refillsRemaining", "must not be negative");
  } else if (rx.refillsAuthorized >= 1 && rx.refillsRemaining > rx.refillsAuthorized - 1) {
    invalid(
      "prescription.refillsRemaining",
      "must be less than prescription.refillsAuthorized (refillsAuthorized includes the first fill)",
    );
  } else if (rx.firstFilledDate !== null && rx.refillsRemaining === 0) {
    invalid(
      "prescription.refillsRemaining",
      "leaves nothing to transfer: the prescription was filled and has no refills remaining",
    );
  }
}

function checkDates(request: TransferRequest, ctx: ValidationContext, invalid: Report): void {
  const rx = request.prescription;
  const latestAcceptable = ctx.now.getTime() + CLOCK_SKEW_MS;
  const written = instantOf(rx.writtenDate);
  const firstFilled = rx.firstFilledDate === null ? null : instantOf(rx.firstFilledDate);
  const lastFilled = rx.lastFilledDate === null ? null : instantOf(rx.lastFilledDate);
  const expiration = instantOf(rx.expirationDate);
  const dob = request.patient.dateOfBirth;

  // A date of birth has no time zone: it is "in the future" only once that day has begun nowhere on
  // Earth yet (the earliest zone is UTC+14).
  if (startOfDayUtc(dob) - 14 * 3600_000 > latestAcceptable) {
    invalid("patient.dateOfBirth", "must not be in the future");
  } else if (dob > rx.writtenDate.slice(0, 10)) {
    // Compared with the calendar date the prescription was written on, in the prescriber's own offset.
    invalid("patient.dateOfBirth", "must not be after prescription.writtenDate");
  }

  if (written > latestAcceptable) invalid("prescription.writtenDate", "must not be in the future");
  if (expiration <= written) invalid("prescription.expirationDate", "must be after prescription.writtenDate");

  if (lastFilled !== null && firstFilled === null) {
    invalid("prescription.firstFilledDate", "is required when prescription.lastFilledDate is set");
  }
  if (firstFilled !== null) {
    if (firstFilled > latestAcceptable) {
      invalid("prescription.firstFilledDate", "must not be in the future");
    } else if (firstFilled < written) {
      invalid("prescription.firstFilledDate", "must not be before prescription.writtenDate");
    }
  }
  if (lastFilled !== null) {
    if (lastFilled > latestAcceptable) {
      invalid("prescription.lastFilledDate", "must not be in the future");
    } else if (firstFilled !== null && lastFilled < firstFilled) {
      invalid("prescription.lastFilledDate", "must not be before prescription.firstFilledDate");
    }
  }
}
