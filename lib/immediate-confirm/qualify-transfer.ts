// Whether a transfer may be CONFIRMED at intake under a store's policy, by the request alone: the same drug
// review and automated checks the review screen shows (drug-review.ts, review-checks.ts), so what the queue
// explains is what intake decided. The database's part (duplicate therapy, an earlier rejection, the hourly
// cap) is confirm-at-intake.ts. Pure: no server-only imports.
import type { StoreRulesInZone } from "@/lib/stores/store-rules";
import {
  reviewDrug,
  scheduleLabel,
  reviewChecks,
  type DrugReview,
  type ReviewCheck,
  type ReviewCheckOptions,
} from "@/lib/transfers/review";
import { listedAllergies } from "@/lib/interface";
import type { TransferRequest } from "@/lib/interface";

export type QualifyOptions = {
  request: TransferRequest;
  rules: StoreRulesInZone;
  allowListedAllergies: boolean;
  now: Date;
  checkOptions?: ReviewCheckOptions;
};

/** Null when it qualifies; otherwise why not, in the words the queue shows. */
export function whyNotImmediate({
  request,
  rules,
  allowListedAllergies,
  now,
  checkOptions,
}: QualifyOptions): string | null {
  const drug = reviewDrug(request, rules, now);
  return whyNotReviewed({ request, drug, checks: reviewChecks(request, drug, checkOptions), allowListedAllergies });
}

export type QualifyReviewedOptions = {
  request: TransferRequest;
  /** The drug review and the checks as intake's classification made them for the store's rules. */
  drug: DrugReview;
  checks: readonly ReviewCheck[];
  allowListedAllergies: boolean;
};

/** whyNotImmediate over a review already made (intake classifies every transfer with the same one). */
export function whyNotReviewed({ request, drug, checks, allowListedAllergies }: QualifyReviewedOptions): string | null {
  if (drug.match.status === "unknown") {
    return `the drug is not recognised (${request.prescription.medicationName}): an unknown drug never qualifies`;
  }
  if (drug.schedule || drug.match.status === "controlled")
    return `controlled substance (${drug.schedule ? scheduleLabel(drug.schedule) : "controlled"}): never confirmed automatically`;
  const allergies = request.patient.allergyDetails;
  if (allergies.allergiesDescriptor !== "NO_KNOWN_ALLERGIES") {
    if (!allowListedAllergies) return "the patient has listed allergies or none on file: a pharmacist must check";
    if (allergies.allergiesDescriptor === "NOT_AVAILABLE" || listedAllergies(allergies).length === 0) {
      return "no allergy information: a pharmacist must ask";
    }
  }
  if (drug.allergyWarnings.length > 0) return `allergy signal: ${drug.allergyWarnings[0]!.message}`;
  if (drug.blocks.length > 0) return `refused for approval: ${drug.blocks[0]!.title}`;
  const flagged = checks.find((c) => c.status === "warn" || c.status === "fail");
  if (flagged) return `${flagged.title}: ${flagged.status === "fail" ? "failed" : "warning"}: ${flagged.detail}`;
  return null;
}
