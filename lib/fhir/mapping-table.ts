// The mapping from the interface's fields to the FHIR R4 Bundle, as /docs publishes it. Kept next to the
// builders; a change of mapping changes this table too (build-transfer-bundle.test.ts checks the conversions).
export type MappingRow = { field: string; element: string; conversion: string };

export const FHIR_MAPPING: readonly MappingRow[] = [
  {
    field: "metadata.referenceID (ours)",
    element: "Bundle.identifier; MedicationRequest.identifier (use usual)",
    conversion: "system urn:rx-transfer:reference-id",
  },
  { field: "decision time", element: "Bundle.timestamp", conversion: "when the pharmacist approved (UTC)" },
  {
    field: "metadata.patientReferenceID",
    element: "Patient.identifier",
    conversion: "system urn:rx-transfer:patient-reference:npi-<sending NPI>",
  },
  {
    field: "patient.name, dateOfBirth, address, email, contactInfo",
    element: "Patient.name, birthDate, address, telecom",
    conversion: "middle name as a second given name; phone as “+1 2155550143”",
  },
  { field: "patient.gender", element: "Patient.gender", conversion: "M → male, F → female, U → unknown" },
  {
    field: "patient.allergyDetails KNOWN_ALLERGIES_INCLUDED",
    element: "AllergyIntolerance (one per allergy), code.text",
    conversion: "the text as sent; clinicalStatus active",
  },
  {
    field: "patient.allergyDetails NO_KNOWN_ALLERGIES",
    element: "AllergyIntolerance.code",
    conversion: "SNOMED CT 716186003 “No known allergy”",
  },
  {
    field: "patient.allergyDetails NOT_AVAILABLE",
    element: "AllergyIntolerance.code",
    conversion: "IPS absent-unknown no-allergy-info “No information about allergies” (ask the patient; not “none”)",
  },
  {
    field: "prescriber.npi, dea",
    element: "Practitioner.identifier",
    conversion: "systems http://hl7.org/fhir/sid/us-npi and urn:oid:2.16.840.1.113883.4.814 (DEA)",
  },
  {
    field: "prescriber.name, address, contactInfo, faxNumber, email",
    element: "Practitioner.name, address, telecom",
    conversion: "fax as telecom system fax",
  },
  {
    field: "sendingPharmacy, receivingPharmacy",
    element: "Organization (two), identifier NPI and DEA, name, address, telecom, contact",
    conversion: "the pharmacist as Organization.contact.name",
  },
  {
    field: "prescription.medicationName, drugStrength, drugForm",
    element: "MedicationRequest.medicationCodeableConcept.text",
    conversion: "“<name> <strength> <form>”",
  },
  {
    field: "prescription.prescribedNDC",
    element: "medicationCodeableConcept.coding",
    conversion:
      "system http://hl7.org/fhir/sid/ndc, as sent (11 digits, no hyphens; a 10-digit code is never converted)",
  },
  {
    field: "prescription.dispensedNDC",
    element: "MedicationRequest.note",
    conversion: "“NDC to dispense: …” when not null",
  },
  { field: "prescription.sig", element: "MedicationRequest.dosageInstruction.text", conversion: "as sent" },
  {
    field: "prescription.quantityDispensed",
    element: "dispenseRequest.quantity",
    conversion: "per fill, unit = drugForm",
  },
  { field: "prescription.quantityWritten", element: "MedicationRequest.note", conversion: "“Quantity written: …”" },
  { field: "prescription.daysSupply", element: "dispenseRequest.expectedSupplyDuration", conversion: "UCUM d (days)" },
  {
    field: "prescription.refillsAuthorized",
    element: "dispenseRequest.numberOfRepeatsAllowed",
    conversion:
      "refillsAuthorized − 1: the interface counts the first fill, FHIR counts only the repeats after it (4 authorized → 3); at most 5 for Schedule III/IV (21 CFR 1306.22: 12 authorized → 5)",
  },
  {
    field: "prescription.refillsRemaining",
    element: "MedicationRequest.note",
    conversion:
      "“Valid refills remaining: N”, the lawful number (already counted after the first fill; capped for Schedule III/IV), with the sender's own number beside it when it differs",
  },
  {
    field: "prescription.firstFilledDate, lastFilledDate",
    element: "MedicationRequest.note",
    conversion: "as sent, or “never”",
  },
  {
    field: "prescription.dawCode, canSubstitute",
    element: "MedicationRequest.substitution",
    conversion:
      "allowedBoolean = canSubstitute and DAW not 1 or 7; reason = the DAW code (NCPDP 408-D8) with its meaning",
  },
  {
    field: "prescription.writtenDate",
    element: "MedicationRequest.authoredOn; dispenseRequest.validityPeriod.start",
    conversion: "as sent (RFC 3339 date-time with offset)",
  },
  { field: "prescription.expirationDate", element: "dispenseRequest.validityPeriod.end", conversion: "as sent" },
  {
    field: "prescription.icdCode",
    element: "MedicationRequest.reasonCode",
    conversion: "system http://hl7.org/fhir/sid/icd-10-cm",
  },
  {
    field: "prescription.rxNumber",
    element: "MedicationRequest.identifier (use secondary)",
    conversion: "system urn:rx-transfer:rx-number:npi-<sending NPI>, assigner the sending pharmacy",
  },
  {
    field: "local Rx number (the pharmacist's, at approval)",
    element: "MedicationRequest.identifier (use official)",
    conversion: "system urn:rx-transfer:local-rx-number:npi-<receiving NPI>, assigner the receiving pharmacy",
  },
  {
    field: "primaryInsurance, secondaryInsurance",
    element: "Coverage (order 1 and 2), beneficiary the Patient",
    conversion: "payor.display = planName; class plan = planName",
  },
  {
    field: "insurance.bin, pcn, groupNumber",
    element: "Coverage.class rxbin, rxpcn, rxgroup",
    conversion: "as sent, each when not null",
  },
  {
    field: "insurance.cardHolderID",
    element: "Coverage.subscriberId",
    conversion: "the member id; subscriber.display = cardHolderName",
  },
  { field: "insurance.personCode", element: "Coverage.dependent", conversion: "as sent (3 digits)" },
];
