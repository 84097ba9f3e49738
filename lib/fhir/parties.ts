// Practitioner (the prescriber, 2.8) and Organization (sending and receiving pharmacy, 2.9).
import type { Organization, Practitioner } from "@medplum/fhirtypes";
import { fhirAddress, humanName, nameText, npiAndDea, telecoms } from "@/lib/fhir/common";
import { withTelecom } from "@/lib/fhir/patient";
import { SYSTEMS } from "@/lib/fhir/systems";
import type { Pharmacy, Prescriber } from "@/lib/interface";

export function buildPrescriber(prescriber: Prescriber): Practitioner {
  return {
    resourceType: "Practitioner",
    identifier: npiAndDea(prescriber.npi, prescriber.dea),
    name: [humanName(prescriber.name)],
    address: [fhirAddress(prescriber.address)],
    ...withTelecom(
      telecoms({ contactInfo: prescriber.contactInfo, fax: prescriber.faxNumber, email: prescriber.email }),
    ),
  };
}

export function buildPharmacy(pharmacy: Pharmacy): Organization {
  return {
    resourceType: "Organization",
    identifier: npiAndDea(pharmacy.npi, pharmacy.dea),
    active: true,
    type: [
      {
        coding: [{ system: SYSTEMS.organizationType, code: "prov", display: "Healthcare Provider" }],
        text: "Pharmacy",
      },
    ],
    name: pharmacy.name,
    address: [fhirAddress(pharmacy.address)],
    ...withTelecom(telecoms({ contactInfo: pharmacy.contactInfo, email: pharmacy.email })),
    // The pharmacist named on the transfer (for a sending pharmacy, the one who transferred it).
    contact: [{ name: { ...humanName(pharmacy.pharmacist), text: nameText(pharmacy.pharmacist) } }],
  };
}
