// Automated checks a pharmacist sees on the review screen, each explained in words. The intake
// (validate-request.ts) has already refused requests that break the interface's rules; these say what
// deserves a second look; the drug's own rules (drug-review.ts) come in as checks too, and those that refuse approval are
// enforced by the server. Pure functions over the stored request (no server-only imports: client
// components use the constants). They are the one definition: the queue's "warnings" filter reads their
// results, stored when the transfer is classified (classify-transfer.ts). This module runs the checks in
// the order the screen shows them; each family lives in review-checks-<family>.ts.
import type { DrugReview } from "@/lib/transfers/review/drug-review";
import {
  allergyCheck,
  controlledLimitsCheck,
  expiryCheck,
  scheduleCheck,
} from "@/lib/transfers/review/review-checks-drug";
import {
  DEFAULT_EARLY_REFILL_ALLOWANCE,
  fillHistoryCheck,
  nextFillCheck,
  refillCheck,
} from "@/lib/transfers/review/review-checks-fills";
import { deaCheck, npiCheck } from "@/lib/transfers/review/review-checks-identifiers";
import { dawCheck, ndcCheck, quantityCheck } from "@/lib/transfers/review/review-checks-product";
import type { TransferRequest } from "@/lib/interface/client-safe";

export type CheckStatus = "pass" | "info" | "warn" | "fail";
export type ReviewCheck = { id: string; title: string; status: CheckStatus; detail: string };

export type ReviewCheckOptions = {
  /** How early a refill may come, as a fraction of the days supply (0.25: a 30-day supply may be refilled after 22.5 days). */
  earlyRefillAllowance?: number;
};

export function reviewChecks(
  request: TransferRequest,
  drug: DrugReview,
  options: ReviewCheckOptions = {},
): ReviewCheck[] {
  const allowance = options.earlyRefillAllowance ?? DEFAULT_EARLY_REFILL_ALLOWANCE;
  const nextFill = nextFillCheck(request, drug.today, drug.timeZone, allowance);
  return [
    scheduleCheck(request, drug),
    allergyCheck(request, drug),
    npiCheck(request),
    deaCheck(request, drug),
    expiryCheck(drug),
    refillCheck(request),
    fillHistoryCheck(request, allowance, drug.timeZone),
    ...(nextFill ? [nextFill] : []),
    ...(drug.refills ? [controlledLimitsCheck(drug)] : []),
    quantityCheck(request),
    dawCheck(request),
    ndcCheck(request),
  ];
}

export function countProblems(checks: readonly ReviewCheck[]): { warnings: number; failures: number } {
  return {
    warnings: checks.filter((c) => c.status === "warn").length,
    failures: checks.filter((c) => c.status === "fail").length,
  };
}

/** "1 failed", "2 warnings": the words the queue and the review screen both say for the same counts. */
export function problemWords(counts: { warnings: number; failures: number }): string[] {
  return [
    ...(counts.failures > 0 ? [`${counts.failures} failed`] : []),
    ...(counts.warnings > 0 ? [`${counts.warnings} ${counts.warnings === 1 ? "warning" : "warnings"}`] : []),
  ];
}
