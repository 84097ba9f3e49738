// MedicationRequest from the interface's Prescription (2.10).
//
// Refills: the interface's refillsAuthorized counts the first fill ("refills originally written, including
// the first fill", 1-100); FHIR's dispenseRequest.numberOfRepeatsAllowed counts only the fills after the
// first ("in addition to the original dispense"). So numberOfRepeatsAllowed = refillsAuthorized - 1 (the
// refills originally authorized, the number the DEA record asks for), capped at what federal law allows (at
// most 5 for Schedule III/IV: lawful-refill-count.ts). What is left of them travels in a note as the lawful
// number, with what the sender sent beside it when that differs, and the fill dates.
//
// Substitution: DAW 1 (prescriber: substitution not allowed) and DAW 7 (brand mandated by law) forbid it,
// as does canSubstitute = false; otherwise it is allowed. The DAW code itself travels as the reason.
//
// Dates: writtenDate is authoredOn and starts validityPeriod, expirationDate ends it; both are kept exactly
// as sent (RFC 3339 with seconds and an offset, which is a valid FHIR dateTime).
import type { Coverage, MedicationRequest, Organization, Patient, Practitioner, Reference } from "@medplum/fhirtypes";
import { localRxSystem, senderRxSystem, SYSTEMS } from "@/lib/fhir/systems";
import type { Schedule } from "@/lib/drugs";
import { lawfulRefillCount, senderRefillsNote } from "@/lib/transfers/record";
import type { TransferRequest } from "@/lib/interface";

/** NCPDP Product Selection Codes (DAW), 0-9. */
export const DAW_MEANINGS: readonly string[] = [
  "No product selection indicated",
  "Substitution not allowed by prescriber",
  "Substitution allowed - patient requested product dispensed",
  "Substitution allowed - pharmacist selected product dispensed",
  "Substitution allowed - generic drug not in stock",
  "Substitution allowed - brand drug dispensed as a generic",
  "Override",
  "Substitution not allowed - brand drug mandated by law",
  "Substitution allowed - generic drug not available in marketplace",
  "Substitution allowed by prescriber but plan requests brand",
];
const DAW_FORBIDS_SUBSTITUTION = new Set([1, 7]);

export type MedicationRequestRefs = {
  patient: Reference<Patient>;
  prescriber: Reference<Practitioner>;
  sendingPharmacy: Reference<Organization>;
  receivingPharmacy: Reference<Organization>;
  coverages: Reference<Coverage>[];
};

export function buildMedicationRequest(input: {
  referenceID: string;
  request: TransferRequest;
  localRxNumber: string | null;
  /** The schedule the approval recorded: the lawful refill count depends on it. */
  schedule: Schedule | null;
  refs: MedicationRequestRefs;
}): MedicationRequest {
  const { request, refs } = input;
  const refills = lawfulRefillCount(request, input.schedule);
  const rx = request.prescription;
  const ndcCodings = [{ system: SYSTEMS.ndc, code: rx.prescribedNDC, display: rx.medicationName }];
  const allowed = rx.canSubstitute && !(rx.dawCode !== null && DAW_FORBIDS_SUBSTITUTION.has(rx.dawCode));
  return {
    resourceType: "MedicationRequest",
    identifier: [
      {
        use: "secondary",
        system: senderRxSystem(request.sendingPharmacy.npi),
        value: rx.rxNumber,
        assigner: refs.sendingPharmacy,
      },
      ...(input.localRxNumber
        ? [
            {
              use: "official" as const,
              system: localRxSystem(request.receivingPharmacy.npi),
              value: input.localRxNumber,
              assigner: refs.receivingPharmacy,
            },
          ]
        : []),
      { use: "usual", system: SYSTEMS.transferReference, value: input.referenceID },
    ],
    status: "active",
    intent: "order",
    medicationCodeableConcept: { text: `${rx.medicationName} ${rx.drugStrength} ${rx.drugForm}`, coding: ndcCodings },
    subject: refs.patient,
    authoredOn: rx.writtenDate,
    requester: refs.prescriber,
    ...(rx.icdCode ? { reasonCode: [{ coding: [{ system: SYSTEMS.icd10cm, code: rx.icdCode }] }] } : {}),
    ...(refs.coverages.length > 0 ? { insurance: refs.coverages } : {}),
    note: [{ text: fillHistory(request, refills, senderRefillsNote(refills, input.schedule)) }],
    dosageInstruction: [{ text: rx.sig }],
    dispenseRequest: {
      validityPeriod: { start: rx.writtenDate, end: rx.expirationDate },
      numberOfRepeatsAllowed: refills.lawfulAfterFirst,
      // Per fill (quantityDispensed is "quantity wanted per order"), in the units of the drug form.
      quantity: { value: rx.quantityDispensed, unit: rx.drugForm },
      expectedSupplyDuration: { value: rx.daysSupply, unit: "days", system: SYSTEMS.ucum, code: "d" },
      performer: refs.receivingPharmacy,
    },
    substitution: {
      allowedBoolean: allowed,
      ...(rx.dawCode !== null
        ? {
            reason: {
              coding: [{ system: SYSTEMS.daw, code: String(rx.dawCode), display: DAW_MEANINGS[rx.dawCode] }],
              text: `DAW ${rx.dawCode}`,
            },
          }
        : {}),
    },
  };
}

/** The legal record's fill facts that FHIR has no element for, in words. */
function fillHistory(
  request: TransferRequest,
  refills: ReturnType<typeof lawfulRefillCount>,
  senderNote: string | null,
): string {
  const rx = request.prescription;
  return [
    `Transferred from ${request.sendingPharmacy.name} (NPI ${request.sendingPharmacy.npi}), Rx ${rx.rxNumber}.`,
    `Fills authorized including the first: ${rx.refillsAuthorized} (refills after the first fill: ${rx.refillsAuthorized - 1}).`,
    `Valid refills remaining: ${refills.refillsRemaining}.`,
    ...(senderNote ? [senderNote] : []),
    `Quantity written: ${rx.quantityWritten}; per fill: ${rx.quantityDispensed} (${rx.drugForm}).`,
    `First filled: ${rx.firstFilledDate ?? "never"}; last filled: ${rx.lastFilledDate ?? "never"}.`,
    ...(rx.dispensedNDC ? [`NDC to dispense: ${rx.dispensedNDC}.`] : []),
  ].join(" ");
}
