// What both ways of judging a transfer under a store's policy share (confirm-at-intake.ts, the long way in a
// transaction; confirm-in-one-statement.ts, the common case in one statement): their options, the audit event of a confirmation and the reasons the database's signals give.
import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import type { AuditEventInput } from "@/lib/audit/record-audit-event";
import type { KnownApiKey } from "@/lib/auth/find-sender-by-api-key";
import type { CachedPolicy } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import type { StoreRulesInZone } from "@/lib/stores/store-rules";
import { DUPLICATE_THERAPY_DAYS, type DrugReview, type ReviewCheck } from "@/lib/transfers/review";
import type { TransferInsert } from "@/lib/transfers/queries/intake";
import type { TransferRequest, TransferResponse } from "@/lib/interface";

/** The row as classified by a store's rules, with the drug review and checks it was classified by. */
export type ReviewedRow = { row: TransferInsert; review: { drug: DrugReview; checks: readonly ReviewCheck[] } };

export type ConfirmAtIntakeOptions = {
  request: TransferRequest;
  /** The RECEIVED answer (receive-transfer.ts). */
  response: TransferResponse;
  /** The row classified by these rules (the policy's), or by the store's as intake reads them when null. */
  rowFor: (rules: StoreRulesInZone | null) => Promise<ReviewedRow>;
  /** The store's policy as cached: the request is judged by it before the transaction. */
  policy: CachedPolicy;
  /** A key intake trusts: then nothing is stored unless the key is still as it was found. */
  key?: KnownApiKey;
  /** Judgments before the transfer is stored RECEIVED unjudged (MOVED_MISS); ATTEMPTS unless given. */
  attempts?: number;
};

export const OWNER_MISS = "the policy's owner is no longer an active pharmacist";
export const REJECTED_MISS = "this sender's earlier transfer of the same prescription was rejected here";
export const DUPLICATE_MISS = `duplicate therapy: the patient has another transfer of the same drug in the last ${DUPLICATE_THERAPY_DAYS} days`;

/** The audit event written with a confirmation. */
export function confirmationAudit(transferId: string, policy: CachedPolicy): AuditEventInput {
  return {
    actor: SYSTEM_ACTOR,
    action: "transfer.confirmed_immediately",
    transferId,
    details: { transferId, storeId: policy.store_id, policyVersion: policy.version, owner: policy.owner_name },
  };
}
