// Deciding a transfer, exactly once, whatever two browsers do at the same moment. In one transaction:
//   1. lock the transfer row (SELECT … FOR UPDATE): concurrent deciders queue here;
//   2. refuse if it is no longer RECEIVED ("already approved by X at T"), or if another pharmacist holds
//      a live claim; otherwise the decider takes the claim implicitly (it is released with the decision);
//   3. insert transfer_decisions, whose primary key (transfer_id) is the database's own guarantee of one
//      decision per transfer, and whose trigger keeps it immutable;
//   4. update the transfer (status, decidedAt, outcome = the TransferResponse; a rejection also frees the
//      prescription's active_rx_key so the sender may send it again), enqueue the sender's callback
//      (transactional outbox) and append the audit record.
// If the row lock were ever bypassed, the primary key still refuses the second decision; that refusal
// is turned into the same "already decided by X at T" answer, never a 500.
import { Prisma } from "@/generated/prisma/client";
import type { Decision } from "@/generated/prisma/enums";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SessionUser } from "@/lib/auth/require-user";
import { enqueueCallback } from "@/lib/callbacks/enqueue-callback";
import { isUniqueViolation } from "@/lib/db/errors";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { AlreadyDecidedError, ApprovalRefusedError, ClaimHeldError } from "@/lib/transfers/decision-errors";
import type { ApproveInput, RejectInput } from "@/lib/transfers/decision-inputs";
import { confirmedResponse, rejectionResponse } from "@/lib/transfers/decision-responses";
import { parseStoreRules, DEFAULT_STORE_RULES } from "@/lib/stores/store-rules";
import { checkApproval, type ApprovedDrug } from "@/lib/transfers/approval-rules";
import { TransferRequestSchema, type TransferResponse } from "@/lib/transfers/wire";
import { observeDecision } from "@/lib/ops/metrics";
import { appendFeedEntry } from "@/lib/integration/append-feed-entry";

export type DecisionRequest =
  | ({ kind: "approve" } & ApproveInput)
  | ({ kind: "reject" } & RejectInput);

export type DecisionResult = {
  referenceID: string;
  decision: Decision;
  decidedBy: string;
  decidedAt: string;
  response: TransferResponse;
  callbackId: string;
};

type Db = Prisma.TransactionClient | ReturnType<typeof db>;

type LockedRow = {
  id: string;
  partner_id: string;
  status: string;
  request: unknown;
  claimed_by_id: string | null;
  claim_expires_at: Date | null;
  claim_live: boolean;
  claimed_by_name: string | null;
};

export async function decideTransfer(input: {
  transferId: string;
  actor: SessionUser;
  clientAddress: string | null;
  decision: DecisionRequest;
}): Promise<DecisionResult> {
  const { transferId, actor, decision } = input;
  if (actor.role !== "pharmacist") {
    throw new DomainError("forbidden", "Only pharmacists decide transfers: the approval is the legal transfer record.");
  }
  try {
    const result: DecisionResult = await db().$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<LockedRow[]>`
          SELECT t.id, t.partner_id, t.status::text AS status, t.request, t.claimed_by_id, t.claim_expires_at,
                 (t.claim_expires_at IS NOT NULL AND t.claim_expires_at > now()) AS claim_live, u.name AS claimed_by_name
            FROM transfers t LEFT JOIN users u ON u.id = t.claimed_by_id
           WHERE t.id = ${transferId}
             FOR UPDATE OF t`;
        const row = rows[0];
        if (!row) throw new DomainError("not_found", `No transfer ${transferId}.`);
        if (row.status !== "RECEIVED") throw await alreadyDecided(tx, transferId);
        if (row.claim_live && row.claimed_by_id !== actor.id) {
          throw new ClaimHeldError({
            heldBy: row.claimed_by_name ?? "another pharmacist",
            heldById: row.claimed_by_id ?? "",
            claimExpiresAt: (row.claim_expires_at ?? new Date()).toISOString(),
          });
        }

        const request = TransferRequestSchema.parse(row.request);
        const now = new Date();
        // The store's rules read inside the transaction (not the intake cache): the decision uses today's rules.
        let approved: ApprovedDrug | null = null;
        let license: string | null = null;
        if (decision.kind === "approve") {
          const store = await tx.store.findUnique({ where: { npi: request.receivingPharmacy.npi }, select: { extraSchedules: true, rxExpiryMonths: true } });
          approved = checkApproval(request, store ? parseStoreRules(store) : DEFAULT_STORE_RULES, now, decision);
          license = (await tx.user.findUnique({ where: { id: actor.id }, select: { licenseNumber: true } }))?.licenseNumber ?? null;
        }
        const response =
          decision.kind === "approve"
            ? confirmedResponse(request, transferId, now, decision.localRxNumber)
            : rejectionResponse(request, transferId, now, decision.errorType, decision.description);
        const outcome = decision.kind === "approve" ? "APPROVED" : "REJECTED";
        const json = response as unknown as Prisma.InputJsonValue;

        await tx.transferDecision.create({
          data: {
            transferId,
            decision: outcome,
            userId: actor.id,
            pharmacistName: actor.name,
            decidedAt: now,
            errorType: decision.kind === "reject" ? decision.errorType : null,
            description: decision.kind === "reject" ? decision.description : null,
            drugSchedule: approved?.drugSchedule ?? null,
            scheduleBasis: approved?.drug.scheduleBasis ?? null,
            oneTimeTransferConfirmed: approved?.oneTimeTransferConfirmed ?? null,
            allergyWarnings: approved ? (approved.drug.allergyWarnings as unknown as Prisma.InputJsonValue) : undefined,
            legalExpiry: approved ? new Date(`${approved.drug.legalExpiry}T00:00:00Z`) : null,
            pharmacistLicense: license,
            note: decision.kind === "approve" ? (decision.note ?? null) : null,
            localRxNumber: decision.kind === "approve" ? (decision.localRxNumber ?? null) : null,
            response: json,
          },
        });
        await tx.transfer.update({
          where: { id: transferId },
          data: {
            status: outcome === "APPROVED" ? "CONFIRMED" : "REJECTED",
            decidedAt: now,
            outcome: json,
            claimedById: null,
            claimExpiresAt: null,
            // A rejected prescription may be sent again (receive-transfer.ts keys live transfers on it).
            ...(outcome === "REJECTED" ? { activeRxKey: null } : {}),
          },
        });
        const { callbackId } = await enqueueCallback(tx, { transferId, partnerId: row.partner_id, response });
        await recordAuditEvent(
          {
            userId: actor.id,
            actor: actor.email,
            action: outcome === "APPROVED" ? "transfer.approved" : "transfer.rejected",
            transferId,
            clientAddress: input.clientAddress,
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
          },
          tx,
        );
        // Last, under its own lock: the dispensing-system feed's order is commit order (append-feed-entry.ts).
        if (outcome === "APPROVED") await appendFeedEntry(tx, { transferId, approvedAt: now });
        return { referenceID: transferId, decision: outcome, decidedBy: actor.name, decidedAt: now.toISOString(), response, callbackId };
      },
      { maxWait: 10_000, timeout: 20_000 },
    );
    observeDecision(result.decision === "APPROVED" ? "approved" : "rejected");
    return result;
  } catch (err) {
    const refusal = isUniqueViolation(err) ? await alreadyDecided(db(), transferId) : err;
    if (refusal instanceof AlreadyDecidedError || refusal instanceof ClaimHeldError || refusal instanceof ApprovalRefusedError) {
      await recordAuditEvent({
        userId: actor.id,
        actor: actor.email,
        action: "transfer.decision_refused",
        transferId,
        clientAddress: input.clientAddress,
        details: { attempted: decision.kind, reason: refusal.extensions.reason, ...(refusal instanceof ApprovalRefusedError ? { rule: refusal.extensions.rule } : {}) },
      });
    }
    throw refusal;
  }
}

async function alreadyDecided(client: Db, transferId: string): Promise<AlreadyDecidedError | DomainError> {
  const decided = await client.transferDecision.findUnique({
    where: { transferId },
    select: { decision: true, pharmacistName: true, decidedAt: true },
  });
  if (!decided) return new DomainError("conflict", "This transfer is no longer waiting for a decision.");
  return new AlreadyDecidedError({
    decision: decided.decision,
    decidedBy: decided.pharmacistName,
    decidedAt: decided.decidedAt.toISOString(),
  });
}
