// Stores a transfer for a store whose immediate-confirmation policy is on, and in the same transaction either
// confirms it (status CONFIRMED, the CONFIRMED answer stored as the response a replay returns, the decision
// record in immediate_confirmations, an audit event) or leaves it RECEIVED with the reason it did not qualify.
// The store's policy lock is held shared for the transaction (policy-lock.ts), so a change of policy waits for
// the judgments in flight and the version recorded is the one in force. The hourly cap is counted without serialising intake: far from
// the cap, concurrent confirmations at one store proceed together (exact unless more than CAP_MARGIN are in
// flight at once for that store; a process's pool holds 10 connections); within CAP_MARGIN of it they take the
// store's advisory lock one at a time and count again, so the cap itself is exact.
import { Prisma } from "@/generated/prisma/client";
import { auditChainAcquireSql, auditInsertSql, type AuditEventInput } from "@/lib/audit/record-audit-event";
import { sqlDb } from "@/lib/db/kysely";
import { poolTransaction, type PoolTransaction } from "@/lib/db/pool-transaction";
import { policyLockSql } from "@/lib/immediate-confirm/policy-lock";
import { whyNotImmediate } from "@/lib/immediate-confirm/qualify-transfer";
import { inZone, parseStoreRules } from "@/lib/stores/store-rules";
import { confirmedResponse } from "@/lib/transfers/decision";
import { DUPLICATE_THERAPY_DAYS, reviewCheckOptions } from "@/lib/transfers/review";
import type { TransferRequest, TransferResponse } from "@/lib/interface";

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
  // On the pg pool, each statement prepared once per connection: Prisma's interactive transaction cost this
  // path several times the CPU of the rest of intake.
  return poolTransaction(async (tx) => {
    // The policy's shared lock (in memory, unlike a row's share lock, which writes the row) is taken before
    // the policy is read, in a later statement, so the read sees any change committed while it waited.
    const [inserted] = await tx.query<{ id: string | null }>(Prisma.sql`
      WITH stored AS (INSERT INTO transfers (${columns}) VALUES (${values}) ON CONFLICT DO NOTHING RETURNING id)
      SELECT (SELECT id FROM stored) AS id, ${policyLockSql(request.receivingPharmacy.npi, "shared")}`);
    if (!inserted?.id) return null;
    const [policy] = await tx.query<PolicyRow>(Prisma.sql`
      SELECT p.store_id, p.version, p.enabled, p.allow_listed_allergies, p.hourly_cap,
             u.name AS owner_name, u.license_number AS owner_license,
             s.extra_schedules, s.rx_expiry_months, s.time_zone
        FROM immediate_confirm_policies p
        JOIN stores s ON s.id = p.store_id
        LEFT JOIN users u ON u.id = p.owner_user_id AND u.disabled_at IS NULL AND u.role = 'pharmacist'
       WHERE s.npi = ${request.receivingPharmacy.npi}`);
    if (!policy || !policy.enabled) return response;
    const now = new Date();
    const miss = await whyNotHere(tx, id, policy, request, now);
    if (miss) {
      await tx.query(Prisma.sql`UPDATE transfers SET immediate_miss = ${miss} WHERE id = ${id}`);
      return response;
    }
    const confirmed = confirmedResponse(request, id, now);
    const confirmedJson = JSON.stringify(confirmed);
    const [chain] = await tx.query(
      sqlDb().selectFrom(auditChainAcquireSql().as("a")).select(["a.chain", "a.prev_hash"]),
    );
    const audit: AuditEventInput = {
      userId: null,
      actor: "system",
      action: "transfer.confirmed_immediately",
      transferId: id,
      clientAddress: null,
      details: { transferId: id, storeId: policy.store_id, policyVersion: policy.version, owner: policy.owner_name },
    };
    await tx.query(Prisma.sql`
      WITH moved AS (
        UPDATE transfers SET status = 'CONFIRMED', decided_at = ${now}::timestamptz, response = ${confirmedJson}::jsonb,
               response_id = ${confirmed.metadata.responseID}, outcome = ${confirmedJson}::jsonb
         WHERE id = ${id}
      ), record AS (
        INSERT INTO immediate_confirmations (transfer_id, store_id, policy_version, owner_name, owner_license, confirmed_at)
        VALUES (${id}, ${policy.store_id}, ${policy.version}::int, ${policy.owner_name!}, ${policy.owner_license}, ${now}::timestamptz)
      )
      SELECT 1`);
    await tx.query(auditInsertSql(audit, chain!));
    return confirmed;
  });
}

async function whyNotHere(
  tx: PoolTransaction,
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
  const [signals] = await tx.query<{ rejected: boolean; duplicate: boolean }>(Prisma.sql`
    WITH cur AS (SELECT * FROM transfers WHERE id = ${id})
    SELECT
      EXISTS (SELECT 1 FROM transfers h, cur WHERE h.partner_id = cur.partner_id AND h.sending_npi = cur.sending_npi
                 AND h.rx_number = cur.rx_number AND h.status = 'REJECTED') AS rejected,
      EXISTS (SELECT 1 FROM transfers h, cur WHERE h.id <> cur.id AND h.status IN ('RECEIVED', 'CONFIRMED')
                 AND h.patient_name_key = cur.patient_name_key AND h.patient_dob = cur.patient_dob
                 AND cur.drug_substance_key <> '' AND h.drug_substance_key = cur.drug_substance_key
                 AND h.received_at >= cur.received_at - make_interval(days => ${DUPLICATE_THERAPY_DAYS}::int)) AS duplicate`);
  if (signals?.rejected) return "this sender's earlier transfer of the same prescription was rejected here";
  if (signals?.duplicate)
    return "duplicate therapy: the patient has another transfer of the same drug in the last 90 days";
  const capReached = `the store's cap of ${policy.hourly_cap} automatic confirmations an hour is reached`;
  let recent = await countRecent(tx, policy, now);
  if (recent >= policy.hourly_cap) return capReached;
  if (recent >= policy.hourly_cap - CAP_MARGIN) {
    await tx.query(
      Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`immediate-cap:${policy.store_id}`}, 0))`,
    );
    recent = await countRecent(tx, policy, now);
    if (recent >= policy.hourly_cap) return capReached;
  }
  return null;
}

/** Concurrent confirmations at one store that may proceed without the store's cap lock. */
const CAP_MARGIN = 64;

/** This store's confirmations in the hour before `now`, counted no further than its cap. */
async function countRecent(tx: PoolTransaction, policy: PolicyRow, now: Date): Promise<number> {
  const [row] = await tx.query<{ n: number }>(Prisma.sql`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM immediate_confirmations
       WHERE store_id = ${policy.store_id} AND confirmed_at > ${now}::timestamptz - interval '1 hour'
       LIMIT ${policy.hourly_cap}::int) recent`);
  return row?.n ?? 0;
}
