// Stores an accepted transfer as RECEIVED, exactly once. Idempotency and duplicates are decided by the
// database's unique indexes, not by a read-then-write, so concurrent copies of one request create one row:
//   (partner_id, request_id)  the sender's requestID: same content replays our first answer, other content is a duplicate
//   active_rx_key             one live transfer per prescription (sending NPI + rxNumber) until it is rejected
// A duplicate names the existing referenceID (and its status) only to the partner that sent it: another
// partner learns only that the prescription is already here, never another sender's ids (docs/interface.md,
// "Idempotency and duplicates").
import { db } from "@/lib/db/prisma";
import { newId } from "@/lib/ids";
import { getStoreRules } from "@/lib/stores/store-npis";
import { classifyTransfer } from "@/lib/transfers/classify-transfer";
import { hashRequestContent } from "@/lib/transfers/content-hash";
import { receivedResponse } from "@/lib/transfers/responses";
import type { TransferRequest, TransferResponse } from "@/lib/transfers/wire";

export type ReceiveOutcome =
  | { kind: "created"; response: TransferResponse }
  | { kind: "replayed"; response: TransferResponse }
  | { kind: "duplicate"; referenceID: string | undefined; description: string };

export function activeRxKey(request: TransferRequest): string {
  return `${request.sendingPharmacy.npi}:${request.prescription.rxNumber}`;
}

type ExistingRow = { id: string; content_hash: string; response: TransferResponse };

export async function receiveTransfer(partnerId: string, request: TransferRequest): Promise<ReceiveOutcome> {
  const contentHash = hashRequestContent(request);
  // Two attempts: the row that blocked the first insert may have been rejected (freeing its rx key) in between.
  for (let attempt = 0; attempt < 2; attempt++) {
    const created = await insertTransfer(partnerId, request, contentHash);
    if (created) return { kind: "created", response: created };

    const sameRequest = await db().$queryRaw<ExistingRow[]>`
      SELECT id, content_hash, response FROM transfers
       WHERE partner_id = ${partnerId} AND request_id = ${request.metadata.requestID}`;
    const previous = sameRequest[0];
    if (previous) {
      if (previous.content_hash === contentHash) return { kind: "replayed", response: previous.response };
      return {
        kind: "duplicate",
        referenceID: previous.id,
        description: `metadata.requestID was already used for a different request (referenceID ${previous.id}); send a new requestID for a new request`,
      };
    }
    const samePrescription = await db().$queryRaw<{ id: string; status: string; partner_id: string }[]>`
      SELECT id, status::text AS status, partner_id FROM transfers WHERE active_rx_key = ${activeRxKey(request)}`;
    const live = samePrescription[0];
    if (live && live.partner_id !== partnerId) {
      return {
        kind: "duplicate",
        referenceID: undefined,
        description: "prescription.rxNumber from sendingPharmacy.npi is already being transferred here; it cannot be sent again while that transfer is open",
      };
    }
    if (live) {
      return {
        kind: "duplicate",
        referenceID: live.id,
        description: `prescription.rxNumber from sendingPharmacy.npi is already ${live.status} here as referenceID ${live.id}`,
      };
    }
  }
  throw new Error("transfer insert conflicted twice without a visible conflicting row");
}

async function insertTransfer(
  partnerId: string,
  request: TransferRequest,
  contentHash: string,
): Promise<TransferResponse | null> {
  const id = newId("trf");
  const response = receivedResponse(request.metadata.requestID, id);
  const { patient, prescription, sendingPharmacy, receivingPharmacy } = request;
  const hasAllergies = patient.allergyDetails.allergies.length > 0 || patient.allergyDetails.allergiesDescriptor === "KNOWN_ALLERGIES_INCLUDED";
  const { drugSchedule, allergyAlert, substanceKey } = classifyTransfer(request, await getStoreRules(receivingPharmacy.npi));
  // One statement, the request passed as a single JSON parameter: no ORM walk over the 3 KB body (docs/performance.md).
  const rows = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO transfers (
      id, partner_id, request_id, content_hash, status, active_rx_key,
      patient_first_name, patient_last_name, patient_search, patient_dob,
      sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
      has_allergies, drug_schedule, allergy_alert, drug_substance_key, received_at, request, response, response_id)
    VALUES (
      ${id}, ${partnerId}, ${request.metadata.requestID}, ${contentHash}, 'RECEIVED', ${activeRxKey(request)},
      ${patient.name.firstName}, ${patient.name.lastName},
      ${`${patient.name.lastName} ${patient.name.firstName}`.toLowerCase()}, ${patient.dateOfBirth}::date,
      ${sendingPharmacy.npi}, ${sendingPharmacy.name}, ${receivingPharmacy.npi}, ${prescription.rxNumber},
      ${prescription.medicationName}, ${prescription.drugStrength},
      ${hasAllergies}, ${drugSchedule}, ${allergyAlert}, ${substanceKey ?? ""}, ${new Date(response.metadata.responseTimestamp)},
      ${JSON.stringify(request)}::jsonb, ${JSON.stringify(response)}::jsonb, ${response.metadata.responseID})
    ON CONFLICT DO NOTHING
    RETURNING id`;
  return rows.length > 0 ? response : null;
}
