// A refusal from the review API, in words: a 409 names who decided or who holds the claim (in local time).
import { ApiError } from "@/components/dashboard/api-client";
import { formatLocal } from "@/components/ui/local-time";

export function conflictMessage(error: unknown): string {
  if (error instanceof ApiError && error.problem) {
    const p = error.problem as {
      reason?: string;
      decision?: string;
      decidedBy?: string;
      decidedAt?: string;
      heldBy?: string;
      claimExpiresAt?: string;
      detail: string;
    };
    if (p.reason === "already_decided" && p.decidedBy && p.decidedAt) {
      return `This transfer was already ${p.decision === "APPROVED" ? "approved" : "rejected"} by ${p.decidedBy} at ${formatLocal(p.decidedAt)}. Your decision was not recorded.`;
    }
    if (p.reason === "claimed_by_other" && p.heldBy && p.claimExpiresAt) {
      return `${p.heldBy} is reviewing this transfer (claim until ${formatLocal(p.claimExpiresAt, "time")}). Your decision was not recorded.`;
    }
    return p.detail;
  }
  return error instanceof Error ? error.message : "Something went wrong.";
}

/** A 409: the transfer's state moved under the person (decided or claimed elsewhere), not a fault. */
export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}
