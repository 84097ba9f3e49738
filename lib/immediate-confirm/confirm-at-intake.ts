// Stores a transfer for a store whose immediate-confirmation policy is on, and in the same transaction either
// confirms it (status CONFIRMED, the CONFIRMED answer stored as the response a replay returns, the decision
// record in immediate_confirmations, an audit event) or leaves it RECEIVED with the reason it did not qualify.
// The policy row is share-locked for the transaction, so a change of policy waits for the judgments in flight
// and the version recorded is the one in force. The hourly cap is counted without serialising intake: far from
// the cap, concurrent confirmations at one store proceed together (exact unless more than CAP_MARGIN are in
// flight at once for that store; a process's pool holds 10 connections); within CAP_MARGIN of it they take the
// store's advisory lock one at a time and count again, so the cap itself is exact.
import { Prisma } from "@/generated/prisma/client";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { whyNotImmediate } from "@/lib/immediate-confirm/qualify-transfer";
import { inZone, parseStoreRules } from "@/lib/stores/store-rules";
import { confirmedResponse } from "@/lib/transfers/decision-responses";
import { DUPLICATE_THERAPY_DAYS } from "@/lib/transfers/get-patient-history";
import { reviewCheckOptions } from "@/lib/transfers/review-check-options";
import type { TransferRequest, TransferResponse } from "@/lib/transfers/wire";

export type ConfirmAtIntakeOptions = {
  request: TransferRequest;
  /** The RECEIVED answer and the row's columns and values (receive-transfer.ts transferRow). */
  response: TransferResponse;
  columns: Prisma.Sql;
  values: Prisma.Sql;
};

type PolicyRow = {
  store_id: string;
  version: number;
  enabled: boolean;
  allow_listed_allergies: boolean;
  hourly_cap: number;
  owner_name: string | null;
  owner_license: string | null;
  extra_schedules: unknown;
  rx_expiry_months: number;
  time_zone: string;
};

/** The answer owed (CONFIRMED or RECEIVED), or null when the insert conflicted (the caller looks at why). */
export async function storeUnderImmediatePolicy(opts: ConfirmAtIntakeOptions): Promise<TransferResponse | null> {
  const { request, response, columns, values } = opts;
  const id = response.metadata.referenceID;
  return db().$transaction(async (tx) => {
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO transfers (${columns}) VALUES (${values}) ON CONFLICT DO NOTHING RETURNING id`;
    if (inserted.length === 0) return null;
    const [policy] = await tx.$queryRaw<PolicyRow[]>`
      SELECT p.store_id, p.version, p.enabled, p.allow_listed_allergies, p.hourly_cap,
             u.name AS owner_name, u.license_number AS owner_license,
             s.extra_schedules, s.rx_expiry_months, s.time_zone
        FROM immediate_confirm_policies p
        JOIN stores s ON s.id = p.store_id
        LEFT JOIN users u ON u.id = p.owner_user_id AND u.disabled_at IS NULL AND u.role = 'pharmacist'
       WHERE s.npi = ${request.receivingPharmacy.npi}
         FOR SHARE OF p`;
    if (!policy || !policy.enabled) return response;
    const now = new Date();
    const miss = await whyNotHere(tx, id, policy, request, now);
    if (miss) {
      await tx.$executeRaw`UPDATE transfers SET immediate_miss = ${miss} WHERE id = ${id}`;
      return response;
    }
    const confirmed = confirmedResponse(request, id, now);
    await tx.$executeRaw`
      UPDATE transfers SET status = 'CONFIRMED', decided_at = ${now}, response = ${JSON.stringify(confirmed)}::jsonb,
             response_id = ${confirmed.metadata.responseID}, outcome = ${JSON.stringify(confirmed)}::jsonb
       WHERE id = ${id}`;
    await tx.immediateConfirmation.create({
      data: {
        transferId: id,
        storeId: policy.store_id,
        policyVersion: policy.version,
        ownerName: policy.owner_name!,
        ownerLicense: policy.owner_license,
        confirmedAt: now,
      },
    });
    await recordAuditEvent(
      {
        userId: null,
        actor: "system",
        action: "transfer.confirmed_immediately",
        transferId: id,
        clientAddress: null,
        details: { transferId: id, storeId: policy.store_id, policyVersion: policy.version, owner: policy.owner_name },
      },
      tx,
    );
    return confirmed;
  });
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["$transaction"]>[0]>[0];

async function whyNotHere(
  tx: Tx,
  id: string,
  policy: PolicyRow,
  request: TransferRequest,
  now: Date,
): Promise<string | null> {
  if (!policy.owner_name) return "the policy's owner is no longer an active pharmacist";
  const rules = inZone(
    parseStoreRules({ extraSchedules: policy.extra_schedules, rxExpiryMonths: policy.rx_expiry_months }),
    policy.time_zone,
  );
  const pure = whyNotImmediate({
    request,
    rules,
    allowListedAllergies: policy.allow_listed_allergies,
    now,
    checkOptions: reviewCheckOptions(),
  });
  if (pure) return pure;
  const [signals] = await tx.$queryRaw<{ rejected: boolean; duplicate: boolean }[]>`
    WITH cur AS (SELECT * FROM transfers WHERE id = ${id})
    SELECT
      EXISTS (SELECT 1 FROM transfers h, cur WHERE h.partner_id = cur.partner_id AND h.sending_npi = cur.sending_npi
                 AND h.rx_number = cur.rx_number AND h.status = 'REJECTED') AS rejected,
      EXISTS (SELECT 1 FROM transfers h, cur WHERE h.id <> cur.id AND h.status IN ('RECEIVED', 'CONFIRMED')
                 AND h.patient_name_key = cur.patient_name_key AND h.patient_dob = cur.patient_dob
                 AND cur.drug_substance_key <> '' AND h.drug_substance_key = cur.drug_substance_key
                 AND h.received_at >= cur.received_at - make_interval(days => ${DUPLICATE_THERAPY_DAYS})) AS duplicate`;
  if (signals?.rejected) return "this sender's earlier transfer of the same prescription was rejected here";
  if (signals?.duplicate)
    return "duplicate therapy: the patient has another transfer of the same drug in the last 90 days";
  const capReached = `the store's cap of ${policy.hourly_cap} automatic confirmations an hour is reached`;
  let recent = await countRecent(tx, policy, now);
  if (recent >= policy.hourly_cap) return capReached;
  if (recent >= policy.hourly_cap - CAP_MARGIN) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`immediate-cap:${policy.store_id}`}, 0))`;
    recent = await countRecent(tx, policy, now);
    if (recent >= policy.hourly_cap) return capReached;
  }
  return null;
}

/** Concurrent confirmations at one store that may proceed without the store's cap lock. */
const CAP_MARGIN = 64;

/** This store's confirmations in the hour before `now`, counted no further than its cap. */
async function countRecent(tx: Tx, policy: PolicyRow, now: Date): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM immediate_confirmations
       WHERE store_id = ${policy.store_id} AND confirmed_at > ${now}::timestamptz - interval '1 hour'
       LIMIT ${policy.hourly_cap}) recent`;
  return row?.n ?? 0;
}
