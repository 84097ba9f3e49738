// Who holds a transfer's claim and what was decided, as the review (get-transfer-review.ts) and its live
// state (get-transfer-activity.ts) both show them: one mapping from the rows, so the two cannot drift apart.
// Client-safe types; the mappings take rows the reads have already loaded.
import type { Decision, TransferStatus } from "@/generated/prisma/enums";

export type ClaimView = { heldBy: string; heldById: string; claimExpiresAt: string };

/** description: what a rejection told the sender (null for an approval). No patient data. */
export type DecisionView = {
  decision: Decision;
  pharmacistName: string;
  decidedAt: string;
  errorType: string | null;
  description: string | null;
};

type ClaimRow = {
  status: TransferStatus;
  claimExpiresAt: Date | null;
  claimedBy: { id: string; name: string } | null;
};

/** The claim while it is live: the transfer still pending and the claim not yet run out at `now`. */
export function claimView(row: ClaimRow, now: Date): ClaimView | null {
  if (row.status !== "RECEIVED" || !row.claimedBy || !row.claimExpiresAt || row.claimExpiresAt <= now) return null;
  return { heldBy: row.claimedBy.name, heldById: row.claimedBy.id, claimExpiresAt: row.claimExpiresAt.toISOString() };
}

type DecisionRow = {
  decision: Decision;
  pharmacistName: string;
  decidedAt: Date;
  errorType: string | null;
  description: string | null;
};

export function decisionView(d: DecisionRow): DecisionView {
  return {
    decision: d.decision,
    pharmacistName: d.pharmacistName,
    decidedAt: d.decidedAt.toISOString(),
    errorType: d.errorType,
    description: d.description,
  };
}
