// Deciding a transfer, exactly once, whatever two browsers do at the same moment. In one transaction:
//   1. lock the transfer row (SELECT … FOR UPDATE): concurrent deciders queue here;
//   2. refuse if it is no longer RECEIVED ("already approved by X at T"), or if another pharmacist holds
//      a live claim; otherwise the decider takes the claim implicitly (it is released with the decision);
//   3. insert transfer_decisions, whose primary key (transfer_id) is the database's own guarantee of one
//      decision per transfer, and whose trigger keeps it immutable;
//   4. update the transfer (status, decidedAt, outcome = the TransferResponse; a rejection also frees the
//      prescription's active_rx_key so the sender may send it again), enqueue the sender's callback
//      (transactional outbox), append the audit record and, for an approval, the integration feed entry.
// Steps 1-2 are one statement and 3-4 another (queries/decision.ts): with BEGIN and COMMIT,
// four round trips where there were fourteen.
// If the row lock were ever bypassed, the primary key still refuses the second decision; that refusal
// is turned into the same "already decided by X at T" answer, never a 500.
import type { Decision } from "@/generated/prisma/enums";
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent, type AuditEventInput } from "@/lib/audit/record-audit-event";
import type { SessionUser } from "@/lib/auth/require-user";
import { isUniqueViolation } from "@/lib/db/errors";
import { poolQuery } from "@/lib/db/pool-query";
import { poolTransaction, type PoolTransaction } from "@/lib/db/pool-transaction";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { AlreadyDecidedError, ApprovalRefusedError, ClaimHeldError } from "@/lib/transfers/decision/decision-errors";
import type { ApproveInput, RejectInput } from "@/lib/transfers/decision/decision-inputs";
import { confirmedResponse, rejectionResponse } from "@/lib/transfers/decision/decision-responses";
import {
  lockForDecision,
  selectDecision,
  writeDecision,
  type DecisionWrite,
  type LockedTransfer,
} from "@/lib/transfers/queries/decision";
import { inZone, parseStoreRules, DEFAULT_STORE_RULES } from "@/lib/stores/store-rules";
import { checkApproval, type ApprovedDrug } from "@/lib/transfers/decision/approval-rules";
import { TransferRequestSchema, type TransferResponse } from "@/lib/interface";
import { observeDecision } from "@/lib/ops/metrics";

export type DecisionRequest = ({ kind: "approve" } & ApproveInput) | ({ kind: "reject" } & RejectInput);

export type DecisionResult = {
  referenceID: string;
  decision: Decision;
  decidedBy: string;
  decidedAt: string;
  response: TransferResponse;
  callbackId: string;
};

type DecideInput = { transferId: string; actor: SessionUser; clientAddress: string | null; decision: DecisionRequest };

export async function decideTransfer(input: DecideInput): Promise<DecisionResult> {
  const { transferId, actor, decision } = input;
  if (actor.role !== "pharmacist") {
    throw new DomainError("forbidden", "Only pharmacists decide transfers: the approval is the legal transfer record.");
  }
  try {
    const result = await poolTransaction(async (tx) => {
      const [row] = await tx.query(lockForDecision(transferId, actor.id));
      // After waiting on the row lock the statement sees the winner's new status but, from its snapshot
      // taken before that commit, not the winner's decision row: read it now, in a new snapshot.
      if (row && row.status !== "RECEIVED" && !row.decided) throw await alreadyDecided(tx, transferId);
      refuseUndecidable(row, transferId, actor.id);
      const { write, response } = decisionWrite(row, input);
      await tx.query(writeDecision(write));
      const decided: DecisionResult = {
        referenceID: transferId,
        decision: write.outcome,
        decidedBy: actor.name,
        decidedAt: write.at.toISOString(),
        response,
        callbackId: write.callbackId,
      };
      return decided;
    });
    observeDecision(result.decision === "APPROVED" ? "approved" : "rejected");
    return result;
  } catch (err) {
    const refusal = isUniqueViolation(err) ? await alreadyDecided({ query: poolQuery }, transferId) : err;
    if (
      refusal instanceof AlreadyDecidedError ||
      refusal instanceof ClaimHeldError ||
      refusal instanceof ApprovalRefusedError
    ) {
      await recordAuditEvent({
        actor: userActor(actor, input.clientAddress),
        action: "transfer.decision_refused",
        transferId,
        details: {
          attempted: decision.kind,
          reason: refusal.extensions.reason,
          ...(refusal instanceof ApprovalRefusedError ? { rule: refusal.extensions.rule } : {}),
        },
      });
    }
    throw refusal;
  }
}

/** Throws the answer for a transfer that is missing, already decided, or under another pharmacist's claim. */
function refuseUndecidable(
  row: LockedTransfer | undefined,
  transferId: string,
  actorId: string,
): asserts row is LockedTransfer & { chain: number; prev_hash: string } {
  if (!row) throw new DomainError("not_found", `No transfer ${transferId}.`);
  if (row.status !== "RECEIVED") {
    if (!row.decided || !row.decided_by || !row.decided_at)
      throw new DomainError("conflict", "This transfer is no longer waiting for a decision.");
    throw new AlreadyDecidedError({
      decision: row.decided,
      decidedBy: row.decided_by,
      decidedAt: row.decided_at.toISOString(),
    });
  }
  if (row.claim_live && row.claimed_by_id !== actorId) {
    throw new ClaimHeldError({
      heldBy: row.claimed_by_name ?? "another pharmacist",
      heldById: row.claimed_by_id ?? "",
      claimExpiresAt: (row.claim_expires_at ?? new Date()).toISOString(),
    });
  }
  // lockForDecision takes an audit chain exactly when the two checks above pass.
  if (row.chain === null || row.prev_hash === null)
    throw new Error("decide-transfer: no audit chain was taken for a decidable transfer");
}

/** Everything the decision writes, worked out from the locked row: the drug review, the response, the audit record. */
function decisionWrite(
  row: LockedTransfer & { chain: number; prev_hash: string },
  input: DecideInput,
): { write: DecisionWrite; response: TransferResponse } {
  const { transferId, actor, decision } = input;
  const request = TransferRequestSchema.parse(row.request);
  const at = new Date();
  // The store's rules as the transaction read them (not the intake cache): the decision uses today's rules.
  const rules =
    row.rx_expiry_months === null
      ? DEFAULT_STORE_RULES
      : inZone(
          parseStoreRules({ extraSchedules: row.extra_schedules, rxExpiryMonths: row.rx_expiry_months }),
          row.time_zone,
        );
  const approved: ApprovedDrug | null =
    decision.kind === "approve" ? checkApproval(request, rules, at, decision) : null;
  const response =
    decision.kind === "approve"
      ? confirmedResponse(request, transferId, at, decision.localRxNumber)
      : rejectionResponse(request, transferId, at, decision.errorType, decision.description);
  const outcome = decision.kind === "approve" ? "APPROVED" : "REJECTED";
  const callbackId = newId("msg");
  const audit: AuditEventInput = {
    actor: userActor(actor, input.clientAddress),
    action: outcome === "APPROVED" ? "transfer.approved" : "transfer.rejected",
    transferId,
    details: {
      responseID: response.metadata.responseID,
      callbackId,
      ...(approved
        ? {
            drugSchedule: approved.drugSchedule,
            scheduleBasis: approved.drug.scheduleBasis,
            oneTimeTransferConfirmed: approved.oneTimeTransferConfirmed,
            allergyWarnings: approved.drug.allergyWarnings.map((w) => w.message),
          }
        : decision.kind === "reject"
          ? { errorType: decision.errorType }
          : {}),
    },
  };
  const write: DecisionWrite = {
    transferId,
    partnerId: row.partner_id,
    outcome,
    at,
    actor: { id: actor.id, name: actor.name, license: decision.kind === "approve" ? row.actor_license : null },
    responseJson: JSON.stringify(response),
    callbackId,
    errorType: decision.kind === "reject" ? decision.errorType : null,
    description: decision.kind === "reject" ? decision.description : null,
    drugSchedule: approved?.drugSchedule ?? null,
    scheduleBasis: approved?.drug.scheduleBasis ?? null,
    oneTimeTransferConfirmed: approved?.oneTimeTransferConfirmed ?? null,
    allergyWarningsJson: approved ? JSON.stringify(approved.drug.allergyWarnings) : null,
    legalExpiry: approved ? new Date(`${approved.drug.legalExpiry}T00:00:00Z`) : null,
    note: decision.kind === "approve" ? (decision.note ?? null) : null,
    localRxNumber: decision.kind === "approve" ? (decision.localRxNumber ?? null) : null,
    audit,
    chain: { chain: row.chain, prev_hash: row.prev_hash },
  };
  return { write, response };
}

/** The decision that won, read in a new snapshot (inside the transaction, or after it). */
async function alreadyDecided(
  client: Pick<PoolTransaction, "query">,
  transferId: string,
): Promise<AlreadyDecidedError | DomainError> {
  const [decided] = await client.query(selectDecision(transferId));
  if (!decided) return new DomainError("conflict", "This transfer is no longer waiting for a decision.");
  return new AlreadyDecidedError({
    decision: decided.decision,
    decidedBy: decided.pharmacist_name,
    decidedAt: decided.decided_at.toISOString(),
  });
}
