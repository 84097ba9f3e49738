// The rules an approval must pass, decided on the server from the drug itself (drug-review.ts), whatever the
// screen showed: Schedule II is refused, Schedule III-IV past six months or with no lawful refill is refused,
// every prescription past its legal or stated expiry is refused, Schedule III-V needs the pharmacist's
// one-time-transfer confirmation, and the schedule is the detected one unless the pharmacist records a
// stricter one (or must choose one, for a drug the tables do not know). Each refusal names its rule.
import type { StoreRulesInZone } from "@/lib/stores/store-rules";
import { ApprovalRefusedError } from "@/lib/transfers/decision/decision-errors";
import {
  drugScheduleOf,
  scheduleNumeral,
  type ApproveInput,
  type DrugSchedule,
} from "@/lib/transfers/decision/decision-inputs";
import { reviewDrug, scheduleLabel, stricterSchedule, type DrugReview } from "@/lib/transfers/review";
import type { TransferRequest } from "@/lib/interface";

export type ApprovedDrug = {
  drug: DrugReview;
  /** What the decision row records: "CIV", or null for not controlled. */
  drugSchedule: DrugSchedule | null;
  oneTimeTransferConfirmed: boolean | null;
};

export function checkApproval(
  request: TransferRequest,
  rules: StoreRulesInZone,
  now: Date,
  input: ApproveInput,
): ApprovedDrug {
  const chosen =
    input.drugSchedule === undefined
      ? undefined
      : input.drugSchedule === null
        ? null
        : scheduleNumeral(input.drugSchedule);
  const detected = reviewDrug(request, rules, now);
  const { match } = detected;
  const name = request.prescription.medicationName;

  if (chosen === undefined && match.status === "unknown") {
    throw new ApprovalRefusedError(
      { rule: "schedule-required", title: "Choose the drug's schedule" },
      `“${name}” was not found in the controlled-substance table: choose its schedule (or "not a controlled substance") before approving.`,
    );
  }
  if (chosen !== undefined && match.schedule && stricterSchedule(match.schedule, chosen) !== chosen) {
    throw new ApprovalRefusedError(
      { rule: "schedule-below-detected", title: "Schedule laxer than the drug's" },
      `${match.basis} You chose ${chosen ? scheduleLabel(chosen) : "not controlled"}; a pharmacist may record a stricter schedule, never a laxer one.`,
    );
  }
  const drug = chosen === undefined ? detected : reviewDrug(request, rules, now, chosen);
  const block = drug.blocks[0];
  if (block)
    throw new ApprovalRefusedError({ rule: block.rule, title: block.title, reject: block.reject }, block.detail);
  if (drug.needsOneTimeConfirmation && input.oneTimeTransferConfirmed !== true) {
    throw new ApprovalRefusedError(
      { rule: "one-time-transfer-unconfirmed", title: "Confirm the one-time transfer" },
      `${name} is ${scheduleLabel(drug.schedule!)}: a Schedule III–V prescription may be transferred only once between pharmacies (21 CFR 1306.25(a)). Confirm that it has not been transferred before.`,
    );
  }
  return {
    drug,
    drugSchedule: drug.schedule ? drugScheduleOf(drug.schedule) : null,
    oneTimeTransferConfirmed: drug.needsOneTimeConfirmation ? true : null,
  };
}
