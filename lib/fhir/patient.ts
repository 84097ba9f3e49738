// Patient and AllergyIntolerance resources from the interface's Patient (2.7) and AllergyDetails (2.6).
import type { AllergyIntolerance, Patient as FhirPatient, Reference } from "@medplum/fhirtypes";
import { fhirAddress, humanName, telecoms } from "@/lib/fhir/common";
import { senderPatientSystem, SYSTEMS } from "@/lib/fhir/systems";
import type { TransferRequest } from "@/lib/interface";

const GENDER: Record<TransferRequest["patient"]["gender"], FhirPatient["gender"]> = {
  M: "male",
  F: "female",
  U: "unknown",
};

export function buildPatient(request: TransferRequest): FhirPatient {
  const { patient } = request;
  return {
    resourceType: "Patient",
    identifier: [
      { system: senderPatientSystem(request.sendingPharmacy.npi), value: request.metadata.patientReferenceID },
    ],
    name: [humanName(patient.name, "official")],
    birthDate: patient.dateOfBirth,
    gender: GENDER[patient.gender],
    address: [fhirAddress(patient.address)],
    ...withTelecom(telecoms({ contactInfo: patient.contactInfo, email: patient.email })),
  };
}

const ACTIVE = { coding: [{ system: SYSTEMS.allergyClinical, code: "active", display: "Active" }] };

/**
 * KNOWN_ALLERGIES_INCLUDED: one resource per allergy, its text as sent (no coding: the interface sends free
 * text). NO_KNOWN_ALLERGIES: one "No known allergy" (SNOMED CT 716186003). NOT_AVAILABLE: one "No information
 * about allergies" (IPS no-allergy-info), so the dispensing system knows to ask rather than assume none.
 */
export function buildAllergies(request: TransferRequest, patient: Reference<FhirPatient>): AllergyIntolerance[] {
  const details = request.patient.allergyDetails;
  const base = { resourceType: "AllergyIntolerance" as const, clinicalStatus: ACTIVE, patient };
  switch (details.allergiesDescriptor) {
    case "KNOWN_ALLERGIES_INCLUDED":
      return details.allergies.map((text) => ({ ...base, code: { text } }));
    case "NO_KNOWN_ALLERGIES":
      return [
        {
          ...base,
          code: {
            coding: [{ system: SYSTEMS.snomed, code: "716186003", display: "No known allergy" }],
            text: "No known allergies",
          },
        },
      ];
    case "NOT_AVAILABLE":
      return [
        {
          ...base,
          code: {
            coding: [
              { system: SYSTEMS.absentUnknown, code: "no-allergy-info", display: "No information about allergies" },
            ],
            text: "No information about allergies",
          },
        },
      ];
  }
}

export function withTelecom<T>(list: T[]): { telecom?: T[] } {
  return list.length > 0 ? { telecom: list } : {};
}
