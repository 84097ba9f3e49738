// Stores an accepted transfer as RECEIVED, exactly once. Idempotency and duplicates are decided by the
// database's unique indexes, not by a read-then-write, so concurrent copies of one request create one row:
//   (partner_id, request_id)  the sender's requestID: same content replays our first answer, other content is a duplicate
//   active_rx_key             one live transfer per prescription (sending NPI + rxNumber) until it is rejected
// A duplicate names the existing referenceID (and its status) only to the partner that sent it: another
// partner learns only that the prescription is already here, never another sender's ids (docs/interface.md,
// "Idempotency and duplicates").
import type { KnownApiKey } from "@/lib/auth/find-sender-by-api-key";
import { poolQuery } from "@/lib/db/pool-query";
import { storeUnderImmediatePolicy, type ReviewedRow } from "@/lib/immediate-confirm/confirm-at-intake";
import { findImmediatePolicy } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import { newId } from "@/lib/ids";
import { getStoreRules } from "@/lib/stores/store-npis";
import type { StoreRulesInZone } from "@/lib/stores/store-rules";
import { classificationOf, reviewAtIntake, type IntakeReview } from "./classify-transfer";
import { hashRequestContent } from "./content-hash";
import { listedAllergies } from "@/lib/interface";
import {
  insertTransfer,
  insertTransferWithKeyCheck,
  selectLivePrescription,
  selectSameRequest,
  type TransferInsert,
} from "@/lib/transfers/queries/intake";
import { receivedResponse } from "@/lib/interface";
import type { TransferRequest, TransferResponse } from "@/lib/interface";

export type ReceiveOutcome =
  | { kind: "created"; response: TransferResponse }
  | { kind: "replayed"; response: TransferResponse }
  | { kind: "duplicate"; referenceID: string | undefined; description: string };

export function activeRxKey(request: TransferRequest): string {
  return `${request.sendingPharmacy.npi}:${request.prescription.rxNumber}`;
}

export async function receiveTransfer(partnerId: string, request: TransferRequest): Promise<ReceiveOutcome> {
  const contentHash = hashRequestContent(request);
  // Two attempts: the row that blocked the first insert may have been rejected (freeing its rx key) in between.
  for (let attempt = 0; attempt < 2; attempt++) {
    const created = await storeTransfer(partnerId, request, contentHash);
    if (created) return { kind: "created", response: created };

    const [previous] = await poolQuery(selectSameRequest(partnerId, request.metadata.requestID));
    if (previous) {
      if (previous.content_hash === contentHash) return { kind: "replayed", response: previous.response };
      return {
        kind: "duplicate",
        referenceID: previous.id,
        description: `metadata.requestID was already used for a different request (referenceID ${previous.id}); send a new requestID for a new request`,
      };
    }
    const [live] = await poolQuery(selectLivePrescription(activeRxKey(request)));
    if (live && live.partner_id !== partnerId) {
      return {
        kind: "duplicate",
        referenceID: undefined,
        description:
          "prescription.rxNumber from sendingPharmacy.npi is already being transferred here; it cannot be sent again while that transfer is open",
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

/** The row's values, shared by the plain insert, the key-checked one and the immediate-confirmation path. */
function transferRow(
  partnerId: string,
  request: TransferRequest,
  contentHash: string,
  response: TransferResponse,
  review: IntakeReview,
): TransferInsert {
  const { patient, prescription, sendingPharmacy, receivingPharmacy } = request;
  // "NKDA" under NO_KNOWN_ALLERGIES is no allergy (no-known-allergies.ts).
  const hasAllergies =
    listedAllergies(patient.allergyDetails).length > 0 ||
    patient.allergyDetails.allergiesDescriptor === "KNOWN_ALLERGIES_INCLUDED";
  const { drugSchedule, allergyAlert, substanceKey, checkFlags, warnsFrom } = classificationOf(request, review);
  // The request passed as a single JSON parameter: no ORM walk over the 3 KB body (docs/performance.md).
  return {
    id: response.metadata.referenceID,
    partner_id: partnerId,
    request_id: request.metadata.requestID,
    content_hash: contentHash,
    active_rx_key: activeRxKey(request),
    patient_first_name: patient.name.firstName,
    patient_last_name: patient.name.lastName,
    patient_search: `${patient.name.lastName} ${patient.name.firstName}`.toLowerCase(),
    patient_dob: patient.dateOfBirth,
    sending_npi: sendingPharmacy.npi,
    sending_name: sendingPharmacy.name,
    receiving_npi: receivingPharmacy.npi,
    rx_number: prescription.rxNumber,
    drug_name: prescription.medicationName,
    drug_strength: prescription.drugStrength,
    has_allergies: hasAllergies,
    drug_schedule: drugSchedule,
    allergy_alert: allergyAlert,
    drug_substance_key: substanceKey ?? "",
    check_flags: checkFlags,
    warns_from: warnsFrom,
    received_at: new Date(response.metadata.responseTimestamp),
    request: JSON.stringify(request),
    response: JSON.stringify(response),
    response_id: response.metadata.responseID,
  };
}

/** A new transfer's RECEIVED answer, and its row classified by a store's rules (the store's own when null). */
export function prepareTransfer(
  partnerId: string,
  request: TransferRequest,
  contentHash: string,
): { response: TransferResponse; rowFor: (rules: StoreRulesInZone | null) => Promise<ReviewedRow> } {
  const response = receivedResponse(request.metadata.requestID, newId("trf"));
  const at = new Date(response.metadata.responseTimestamp);
  const rowFor = async (rules: StoreRulesInZone | null): Promise<ReviewedRow> => {
    const review = reviewAtIntake(request, rules ?? (await getStoreRules(request.receivingPharmacy.npi)), at);
    return { row: transferRow(partnerId, request, contentHash, response, review), review };
  };
  return { response, rowFor };
}

/**
 * Stores the transfer (with `key`, only if the key is still as intake found it). For a store with immediate
 * confirmation on, the row is classified by the rules read with the policy, and the same drug review and
 * checks judge whether it qualifies (lib/immediate-confirm/confirm-at-intake.ts): one review per transfer.
 */
async function storeTransfer(
  partnerId: string,
  request: TransferRequest,
  contentHash: string,
  key?: KnownApiKey,
): Promise<TransferResponse | null> {
  const { response, rowFor } = prepareTransfer(partnerId, request, contentHash);
  const policy = await findImmediatePolicy(request.receivingPharmacy.npi);
  if (policy) return storeUnderImmediatePolicy({ request, response, rowFor, policy, key });
  const { row } = await rowFor(null);
  // Straight on the client's pool, prepared once per connection (lib/db/pool-query.ts says why): its text
  // is the same for every request.
  const rows = key
    ? await poolQuery(insertTransferWithKeyCheck(row, key), { prepared: true })
    : await poolQuery(insertTransfer(row), { prepared: true });
  return rows.length > 0 ? response : null;
}

export type ReceiveWithKeyCheckOptions = {
  /** What an earlier lookup of this key found (lib/auth/api-keys.ts: knownApiKey); checked again here. */
  key: KnownApiKey;
  request: TransferRequest;
};

/**
 * The valid-request path in one round trip (for a store with immediate confirmation on, the first statement of
 * its transaction: lib/immediate-confirm/confirm-at-intake.ts): stores the transfer only if, in the same statement, the key is
 * still valid (not revoked, not expired, its partner not suspended, the partner's NPIs as the caller checked
 * them), and marks the key used at most once a minute, as findSenderByApiKey does. Null when nothing was
 * stored, for whatever reason (a refused key or a conflict): the caller then takes the full path, which
 * looks the key up on its own and answers exactly as it always did.
 */
export async function receiveTransferWithKeyCheck(opts: ReceiveWithKeyCheckOptions): Promise<TransferResponse | null> {
  const { key, request } = opts;
  return storeTransfer(key.partnerId, request, hashRequestContent(request), key);
}
