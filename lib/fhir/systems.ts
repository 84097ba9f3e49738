// The code systems and identifier systems the Bundle uses, in one place (the /docs mapping table names them).
// Ours are URNs under urn:rx-transfer: the sender's Rx numbers and patient ids are scoped by the sending
// pharmacy's NPI, our local Rx numbers by the receiving pharmacy's, so two pharmacies' numbers never collide.

export const SYSTEMS = {
  npi: "http://hl7.org/fhir/sid/us-npi",
  /** DEA registration numbers (the OID US Core uses). */
  dea: "urn:oid:2.16.840.1.113883.4.814",
  ndc: "http://hl7.org/fhir/sid/ndc",
  icd10cm: "http://hl7.org/fhir/sid/icd-10-cm",
  ucum: "http://unitsofmeasure.org",
  snomed: "http://snomed.info/sct",
  allergyClinical: "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical",
  /** "No information about allergies" (the International Patient Summary's absent/unknown codes). */
  absentUnknown: "http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips",
  coverageClass: "http://terminology.hl7.org/CodeSystem/coverage-class",
  organizationType: "http://terminology.hl7.org/CodeSystem/organization-type",
  /** NCPDP Product Selection Code (DAW), field 408-D8. */
  daw: "urn:rx-transfer:ncpdp-daw",
  transferReference: "urn:rx-transfer:reference-id",
} as const;

export const senderRxSystem = (sendingNpi: string) => `urn:rx-transfer:rx-number:npi-${sendingNpi}`;
export const localRxSystem = (receivingNpi: string) => `urn:rx-transfer:local-rx-number:npi-${receivingNpi}`;
export const senderPatientSystem = (sendingNpi: string) => `urn:rx-transfer:patient-reference:npi-${sendingNpi}`;
