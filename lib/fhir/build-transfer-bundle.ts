// One approved transfer as a FHIR R4 transaction Bundle for the pharmacy's dispensing system. Entries refer
// to each other by urn:uuid fullUrls (resolved by the receiving server at POST time); Patient, Practitioner
// and Organization carry ifNoneExist on their identifiers, so posting many Bundles does not duplicate them.
import type { Bundle, BundleEntry, Coverage, Reference, Resource } from "@medplum/fhirtypes";
import { stableUuid } from "@/lib/fhir/common";
import { buildCoverage } from "@/lib/fhir/coverage";
import { buildMedicationRequest } from "@/lib/fhir/medication-request";
import { buildPharmacy, buildPrescriber } from "@/lib/fhir/parties";
import { buildAllergies, buildPatient } from "@/lib/fhir/patient";
import { SYSTEMS, senderPatientSystem } from "@/lib/fhir/systems";
import { scheduleOfText } from "@/lib/drugs";
import type { TransferRequest } from "@/lib/interface";

export type ApprovedTransfer = {
  referenceID: string;
  request: TransferRequest;
  localRxNumber: string | null;
  approvedAt: Date;
  /** The decision's recorded schedule ("CIV", or null for not controlled): the refills are counted under it. */
  drugSchedule: string | null;
};

export function buildTransferBundle(transfer: ApprovedTransfer): Bundle {
  const { referenceID, request } = transfer;
  const entries: BundleEntry[] = [];
  const add = <T extends Resource>(role: string, resource: T, ifNoneExist?: string): Reference<T> => {
    const fullUrl = `urn:uuid:${stableUuid(referenceID, role)}`;
    entries.push({
      fullUrl,
      resource,
      request: { method: "POST", url: resource.resourceType, ...(ifNoneExist ? { ifNoneExist } : {}) },
    });
    return { reference: fullUrl };
  };
  const byNpi = (npi: string) => `identifier=${SYSTEMS.npi}|${npi}`;

  const patient = add(
    "patient",
    buildPatient(request),
    `identifier=${senderPatientSystem(request.sendingPharmacy.npi)}|${request.metadata.patientReferenceID}`,
  );
  const prescriber = add("prescriber", buildPrescriber(request.prescriber), byNpi(request.prescriber.npi));
  const sendingPharmacy = add(
    "sending-pharmacy",
    buildPharmacy(request.sendingPharmacy),
    byNpi(request.sendingPharmacy.npi),
  );
  const receivingPharmacy =
    request.receivingPharmacy.npi === request.sendingPharmacy.npi
      ? sendingPharmacy
      : add("receiving-pharmacy", buildPharmacy(request.receivingPharmacy), byNpi(request.receivingPharmacy.npi));
  const coverages: Reference<Coverage>[] = [];
  const plans: [TransferRequest["primaryInsurance"], 1 | 2][] = [
    [request.primaryInsurance, 1],
    [request.secondaryInsurance, 2],
  ];
  for (const [insurance, order] of plans) {
    if (insurance) coverages.push(add(`coverage-${order}`, buildCoverage(insurance, order, patient)));
  }
  buildAllergies(request, patient).forEach((allergy, i) => add(`allergy-${i}`, allergy));
  add(
    "medication-request",
    buildMedicationRequest({
      referenceID,
      request,
      localRxNumber: transfer.localRxNumber,
      schedule: scheduleOfText(transfer.drugSchedule),
      refs: { patient, prescriber, sendingPharmacy, receivingPharmacy, coverages },
    }),
  );

  return {
    resourceType: "Bundle",
    identifier: { system: SYSTEMS.transferReference, value: referenceID },
    type: "transaction",
    timestamp: transfer.approvedAt.toISOString(),
    entry: entries,
  };
}
