// Coverage from the interface's Insurance (2.11): primary as order 1, secondary as order 2.
import type { Coverage, CoverageClass, Patient, Reference } from "@medplum/fhirtypes";
import { nameText } from "@/lib/fhir/common";
import { SYSTEMS } from "@/lib/fhir/systems";
import type { Insurance } from "@/lib/interface";

function coverageClass(code: "rxbin" | "rxpcn" | "rxgroup" | "plan", value: string, name?: string): CoverageClass {
  return { type: { coding: [{ system: SYSTEMS.coverageClass, code }] }, value, ...(name ? { name } : {}) };
}

export function buildCoverage(insurance: Insurance, order: 1 | 2, beneficiary: Reference<Patient>): Coverage {
  const classes: CoverageClass[] = [coverageClass("plan", insurance.planName, insurance.planName)];
  if (insurance.bin) classes.push(coverageClass("rxbin", insurance.bin));
  if (insurance.pcn) classes.push(coverageClass("rxpcn", insurance.pcn));
  if (insurance.groupNumber) classes.push(coverageClass("rxgroup", insurance.groupNumber));
  return {
    resourceType: "Coverage",
    status: "active",
    order,
    beneficiary,
    // The card holder is named, not linked: it may be someone other than the patient.
    subscriber: { display: nameText(insurance.cardHolderName) },
    subscriberId: insurance.cardHolderID,
    // NCPDP's person code (303-C3) identifies the patient under the card holder's plan: FHIR's `dependent`.
    ...(insurance.personCode ? { dependent: insurance.personCode } : {}),
    payor: [{ display: insurance.planName }],
    class: classes,
  };
}
