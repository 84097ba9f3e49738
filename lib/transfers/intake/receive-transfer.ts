// Stores an accepted transfer as RECEIVED, exactly once. Idempotency and duplicates are decided by the
// database's unique indexes, not by a read-then-write, so concurrent copies of one request create one row:
//   (partner_id, request_id)  the sender's requestID: same content replays our first answer, other content is a duplicate
//   active_rx_key             one live transfer per prescription (sending NPI + rxNumber) until it is rejected
// A duplicate names the existing referenceID (and its status) only to the partner that sent it: another
// partner learns only that the prescription is already here, never another sender's ids (docs/interface.md,
// "Idempotency and duplicates").
import { Prisma } from "@/generated/prisma/client";
import { validApiKeySql, type KnownApiKey } from "@/lib/auth/find-sender-by-api-key";
import { poolQuery } from "@/lib/db/pool-query";
import { db } from "@/lib/db/prisma";
import { storeUnderImmediatePolicy } from "@/lib/immediate-confirm/confirm-at-intake";
import { findImmediateConfirmNpis } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import { newId } from "@/lib/ids";
import { getStoreRules } from "@/lib/stores/store-npis";
import { classifyTransfer } from "@/lib/transfers/intake/classify-transfer";
import { hashRequestContent } from "@/lib/transfers/intake/content-hash";
import { listedAllergies, receivedResponse } from "@/lib/interface";
import type { TransferRequest, TransferResponse } from "@/lib/interface";

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

/**
 * The row's columns and values, shared by the plain insert and the key-checked one. Every value is cast,
 * because the key-checked insert takes them in a SELECT list, where PostgreSQL does not infer the columns' types.
 */
async function transferRow(partnerId: string, request: TransferRequest, contentHash: string) {
  const id = newId("trf");
  const response = receivedResponse(request.metadata.requestID, id);
  const { patient, prescription, sendingPharmacy, receivingPharmacy } = request;
  // "NKDA" under NO_KNOWN_ALLERGIES is no allergy (no-known-allergies.ts).
  const hasAllergies =
    listedAllergies(patient.allergyDetails).length > 0 ||
    patient.allergyDetails.allergiesDescriptor === "KNOWN_ALLERGIES_INCLUDED";
  const { drugSchedule, allergyAlert, substanceKey, checkFlags, warnsFrom } = classifyTransfer(
    request,
    await getStoreRules(receivingPharmacy.npi),
  );
  // The request passed as a single JSON parameter: no ORM walk over the 3 KB body (docs/performance.md).
  const columns = Prisma.sql`
      id, partner_id, request_id, content_hash, status, active_rx_key,
      patient_first_name, patient_last_name, patient_search, patient_dob,
      sending_npi, sending_name, receiving_npi, rx_number, drug_name, drug_strength,
      has_allergies, drug_schedule, allergy_alert, drug_substance_key, check_flags, warns_from,
      received_at, request, response, response_id`;
  const values = Prisma.sql`
      ${id}::text, ${partnerId}::text, ${request.metadata.requestID}::text, ${contentHash}::text, 'RECEIVED'::"TransferStatus", ${activeRxKey(request)}::text,
      ${patient.name.firstName}::text, ${patient.name.lastName}::text,
      ${`${patient.name.lastName} ${patient.name.firstName}`.toLowerCase()}::text, ${patient.dateOfBirth}::date,
      ${sendingPharmacy.npi}::text, ${sendingPharmacy.name}::text, ${receivingPharmacy.npi}::text, ${prescription.rxNumber}::text,
      ${prescription.medicationName}::text, ${prescription.drugStrength}::text,
      ${hasAllergies}::boolean, ${drugSchedule}::text, ${allergyAlert}::text, ${substanceKey ?? ""}::text,
      ${checkFlags}::text[], ${warnsFrom}::date,
      ${new Date(response.metadata.responseTimestamp)}::timestamptz,
      ${JSON.stringify(request)}::jsonb, ${JSON.stringify(response)}::jsonb, ${response.metadata.responseID}::text`;
  return { response, columns, values };
}

async function insertTransfer(
  partnerId: string,
  request: TransferRequest,
  contentHash: string,
): Promise<TransferResponse | null> {
  const { response, columns, values } = await transferRow(partnerId, request, contentHash);
  // A store that confirms qualifying transfers at once (lib/immediate-confirm): stored and judged in one transaction.
  if ((await findImmediateConfirmNpis()).has(request.receivingPharmacy.npi)) {
    return storeUnderImmediatePolicy({ request, response, columns, values });
  }
  const rows = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO transfers (${columns}) VALUES (${values}) ON CONFLICT DO NOTHING RETURNING id`;
  return rows.length > 0 ? response : null;
}

export type ReceiveWithKeyCheckOptions = {
  /** What an earlier lookup of this key found (lib/auth/api-keys.ts: knownApiKey); checked again here. */
  key: KnownApiKey;
  request: TransferRequest;
};

/**
 * The valid-request path in one round trip: stores the transfer only if, in the same statement, the key is
 * still valid (not revoked, not expired, its partner not suspended, the partner's NPIs as the caller checked
 * them), and marks the key used at most once a minute, as findSenderByApiKey does. Null when nothing was
 * stored, for whatever reason (a refused key or a conflict): the caller then takes the full path, which
 * looks the key up on its own and answers exactly as it always did.
 */
export async function receiveTransferWithKeyCheck(opts: ReceiveWithKeyCheckOptions): Promise<TransferResponse | null> {
  const { key, request } = opts;
  const { response, columns, values } = await transferRow(key.partnerId, request, hashRequestContent(request));
  // Straight on the client's pool, prepared once per connection (lib/db/pool-query.ts says why): its text
  // is the same for every request.
  const rows = await poolQuery<{ id: string }>(
    Prisma.sql`
    WITH valid_key AS (${validApiKeySql(key)}),
    touched AS (
      UPDATE api_keys SET last_used_at = now()
       WHERE id IN (SELECT id FROM valid_key) AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute'))
    INSERT INTO transfers (${columns}) SELECT ${values} FROM valid_key
    ON CONFLICT DO NOTHING
    RETURNING id`,
    "receive_transfer_with_key_check",
  );
  return rows.length > 0 ? response : null;
}
