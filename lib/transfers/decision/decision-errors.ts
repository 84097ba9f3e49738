// The two ways a claim or a decision loses to another pharmacist, as typed domain errors whose
// `extensions` the dashboard API puts in its problem+json body, so the screen can say who and when.
import { DomainError } from "@/lib/errors";
import type { Decision } from "@/generated/prisma/enums";

export type DecidedBy = { decision: Decision; decidedBy: string; decidedAt: string };
export type HeldBy = { heldBy: string; heldById: string; claimExpiresAt: string };

export class AlreadyDecidedError extends DomainError {
  readonly extensions: DecidedBy & { reason: "already_decided" };
  constructor(decided: DecidedBy) {
    const verb = decided.decision === "APPROVED" ? "approved" : "rejected";
    super("conflict", `This transfer was already ${verb} by ${decided.decidedBy} at ${decided.decidedAt}.`);
    this.extensions = { reason: "already_decided", ...decided };
  }
}

export class ClaimHeldError extends DomainError {
  readonly extensions: HeldBy & { reason: "claimed_by_other" };
  constructor(held: HeldBy) {
    super("conflict", `${held.heldBy} is reviewing this transfer (claim until ${held.claimExpiresAt}).`);
    this.extensions = { reason: "claimed_by_other", ...held };
  }
}

/** Approval refused by a rule (drug-review.ts) or by a missing confirmation: names the rule and the rejection to send instead. */
export type RuleRefusal = {
  rule: string;
  title: string;
  /** The rejection the pharmacist can send instead, prefilled in the dialog. */
  reject?: { errorType: string; description: string };
};

export class ApprovalRefusedError extends DomainError {
  readonly extensions: RuleRefusal & { reason: "rule" };
  constructor(refusal: RuleRefusal, detail: string) {
    super("refused", refusal.reject ? `${detail} Reject it with ${refusal.reject.errorType}.` : detail);
    this.extensions = { reason: "rule", ...refusal };
  }
}
