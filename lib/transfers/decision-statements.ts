// The two statements of a decision's transaction (decide-transfer.ts), each one round trip (an
// approval was ~14 round trips, each with Prisma's per-statement cost and PostgreSQL's parse and plan).
//   1. lockForDecision: the transfer row locked, with everything the decision reads (the claim holder's
//      name, the store's rules, the pharmacist's licence, an earlier decision) and, when the transfer is
//      decidable, an audit chain's lock and the hash the record links to;
//   2. writeDecision: the decision row, the transfer's new state, the callback and its job (the
//      transactional outbox), the audit record and, for an approval, the integration feed entry.
// Parameterised tagged templates only (Prisma.sql); nothing is spliced into the SQL as text. Both run in a
// pool transaction (lib/db/pool-transaction.ts), prepared once per connection.
import { Prisma } from "@/generated/prisma/client";
import {
  auditChainAcquireSql,
  auditInsertSql,
  type AcquiredChain,
  type AuditEventInput,
} from "@/lib/audit/record-audit-event";
import { deliveryJobSql } from "@/lib/callbacks/job-queue";
import type { PoolTransaction } from "@/lib/db/pool-transaction";
import { feedEntryInsertSql } from "@/lib/integration/feed-entries";

export type LockedTransfer = {
  id: string;
  partner_id: string;
  status: string;
  request: unknown;
  claimed_by_id: string | null;
  claim_expires_at: Date | null;
  claim_live: boolean;
  claimed_by_name: string | null;
  /** The receiving store's rules; null when the store has no row (the federal defaults apply). */
  extra_schedules: unknown;
  rx_expiry_months: number | null;
  time_zone: string | null;
  actor_license: string | null;
  /** An earlier decision, for the "already approved by X at T" answer. */
  decided: "APPROVED" | "REJECTED" | null;
  decided_by: string | null;
  decided_at: Date | null;
  /** Taken only when the transfer is decidable by this actor (RECEIVED, no one else's live claim). */
  chain: number | null;
  prev_hash: string | null;
};

/**
 * Why the chain's lock is taken in this statement and after the row lock: the row lock comes first
 * everywhere (claims, decisions), then the chain's, so no two transactions wait on each other's. The
 * EXISTS over `locked` is a one-time filter evaluated before audit_chain_acquire is called, so the chain is
 * only taken once the row is ours and decidable; a refusal found later (the drug review) rolls it back.
 */
export async function lockForDecision(
  tx: PoolTransaction,
  transferId: string,
  actorId: string,
): Promise<LockedTransfer | undefined> {
  const rows = await tx.query<LockedTransfer>(Prisma.sql`
    WITH locked AS (
      SELECT t.id, t.partner_id, t.status::text AS status, t.request, t.claimed_by_id, t.claim_expires_at, t.receiving_npi,
             (t.claim_expires_at IS NOT NULL AND t.claim_expires_at > now()) AS claim_live
        FROM transfers t
       WHERE t.id = ${transferId}
         FOR UPDATE
    ), acquired AS (
      SELECT a.chain, a.prev_hash FROM ${auditChainAcquireSql()} a
       WHERE EXISTS (SELECT 1 FROM locked l WHERE l.status = 'RECEIVED' AND NOT (l.claim_live AND l.claimed_by_id IS DISTINCT FROM ${actorId}))
    )
    SELECT l.id, l.partner_id, l.status, l.request, l.claimed_by_id, l.claim_expires_at, l.claim_live,
           holder.name AS claimed_by_name, s.extra_schedules, s.rx_expiry_months, s.time_zone, me.license_number AS actor_license,
           d.decision::text AS decided, d.pharmacist_name AS decided_by, d.decided_at,
           a.chain, a.prev_hash
      FROM locked l
      LEFT JOIN users holder ON holder.id = l.claimed_by_id
      LEFT JOIN stores s ON s.npi = l.receiving_npi
      LEFT JOIN users me ON me.id = ${actorId}
      LEFT JOIN transfer_decisions d ON d.transfer_id = l.id
      LEFT JOIN acquired a ON true`);
  return rows[0];
}

export type DecisionWrite = {
  transferId: string;
  partnerId: string;
  outcome: "APPROVED" | "REJECTED";
  at: Date;
  actor: { id: string; name: string; license: string | null };
  /** The TransferResponse owed to the sender: the decision's, the transfer's outcome and the callback's payload. */
  responseJson: string;
  callbackId: string;
  errorType: string | null;
  description: string | null;
  drugSchedule: string | null;
  scheduleBasis: string | null;
  oneTimeTransferConfirmed: boolean | null;
  allergyWarningsJson: string | null;
  legalExpiry: Date | null;
  note: string | null;
  localRxNumber: string | null;
  audit: AuditEventInput;
  chain: AcquiredChain;
};

/**
 * One statement. The decision's primary key refuses a second decision (the caller turns that into "already
 * decided"). The job is scheduleDelivery's own call (deliveryJobSql, lib/callbacks/job-queue.ts): keyed by
 * the callback id, to run now. Data-modifying CTEs the main query does not read run after
 * it, in order. An approval's feed entry is queued unnumbered: it takes no lock (lib/integration/feed-entries.ts).
 */
export async function writeDecision(tx: PoolTransaction, w: DecisionWrite): Promise<void> {
  const rejected = w.outcome === "REJECTED";
  await tx.query(Prisma.sql`
    WITH decision AS (
      INSERT INTO transfer_decisions (transfer_id, decision, user_id, pharmacist_name, decided_at, error_type, description,
                                      drug_schedule, schedule_basis, one_time_transfer_confirmed, allergy_warnings, legal_expiry,
                                      pharmacist_license, note, local_rx_number, response)
      VALUES (${w.transferId}, ${w.outcome}::"Decision", ${w.actor.id}, ${w.actor.name}, ${w.at}::timestamptz, ${w.errorType}, ${w.description},
              ${w.drugSchedule}, ${w.scheduleBasis}, ${w.oneTimeTransferConfirmed}::boolean, ${w.allergyWarningsJson}::jsonb, ${w.legalExpiry}::timestamptz,
              ${w.actor.license}, ${w.note}, ${w.localRxNumber}, ${w.responseJson}::jsonb)
    ), moved AS (
      -- A rejected prescription may be sent again (receive-transfer.ts keys live transfers on active_rx_key).
      UPDATE transfers
         SET status = ${rejected ? "REJECTED" : "CONFIRMED"}::"TransferStatus", decided_at = ${w.at}::timestamptz, outcome = ${w.responseJson}::jsonb,
             claimed_by_id = NULL, claim_expires_at = NULL, callback_status = 'PENDING',
             active_rx_key = CASE WHEN ${rejected}::boolean THEN NULL ELSE active_rx_key END
       WHERE id = ${w.transferId}
    ), callback AS (
      INSERT INTO callbacks (id, transfer_id, partner_id, payload, status, next_attempt_at)
      VALUES (${w.callbackId}, ${w.transferId}, ${w.partnerId}, ${w.responseJson}::jsonb, 'PENDING', ${w.at}::timestamptz)
    ), audit AS (${auditInsertSql(w.audit, w.chain)})
    ${rejected ? Prisma.empty : Prisma.sql`, feed AS (${feedEntryInsertSql({ transferId: w.transferId, approvedAt: w.at })})`}
    SELECT 1 AS queued FROM ${deliveryJobSql(w.callbackId, null)}`);
}
