// What a pharmacist submits to approve or reject a transfer. Shared by the API routes (validation) and the
// dashboard's forms (react-hook-form's zod resolver), so both say the same thing about the same field.
// No server-only imports here.
import * as z from "zod";
import {
  SCHEDULE_CODES,
  SCHEDULES,
  scheduleCode,
  scheduleName,
  scheduleOfCode,
  type Schedule,
  type ScheduleCode,
} from "@/lib/drugs/schedule-names";
import { ERROR_TYPES } from "@/lib/interface/client-safe";

/** A decision's drugSchedule: "CII" to "CV" (lib/drugs/schedule-names.ts). */
export const DRUG_SCHEDULES = SCHEDULE_CODES;
export type DrugSchedule = ScheduleCode;
export const DRUG_SCHEDULE_LABELS = Object.fromEntries(
  SCHEDULES.map((s) => [scheduleCode(s), scheduleName(s)]),
) as Readonly<Record<DrugSchedule, string>>;

/** The decision's "CIV" is the drug tables' "IV" (lib/drugs). */
export function scheduleNumeral(s: DrugSchedule): Schedule {
  return scheduleOfCode(s);
}
export function drugScheduleOf(s: Schedule): DrugSchedule {
  return scheduleCode(s);
}

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

export const ApproveInputSchema = z.object({
  /**
   * The schedule comes from the drug (lib/drugs). The pharmacist sets it only where the tables do not know the
   * drug (then it is required: null means "not controlled", by the pharmacist's determination), or to record a
   * stricter schedule than the detected one; never a laxer one.
   */
  drugSchedule: z.enum(DRUG_SCHEDULES).nullable().optional(),
  /** Schedule III-V: "this prescription has not been transferred before" (21 CFR 1306.25(a): once only). */
  oneTimeTransferConfirmed: z.boolean().optional(),
  localRxNumber: optionalText(64, "Local Rx number").refine((v) => v === undefined || /^[A-Za-z0-9-]+$/.test(v), {
    message: "Local Rx number may contain letters, digits and hyphens only",
  }),
  note: optionalText(1000, "Note"),
});
/** What approving takes (the schema's output fits it: empty fields become absent). */
export type ApproveInput = {
  drugSchedule?: DrugSchedule | null;
  oneTimeTransferConfirmed?: boolean;
  localRxNumber?: string;
  note?: string;
};

/** The interface's error types in a pharmacist's words (the code itself stays beside them, in small type). */
export const ERROR_TYPE_LABELS: Readonly<Record<(typeof ERROR_TYPES)[number], string>> = {
  MISSING_INFO: "Information missing",
  INVALID_INFO: "Information not acceptable",
  RX_EXPIRED: "Prescription expired",
  SPEC_MISMATCH: "Does not follow the interface",
  DUPLICATE_REQUEST: "Already sent",
  OTHER: "Other reason",
};

/** "Prescription expired (RX_EXPIRED)", for text that cannot set the code in small type. */
export function errorTypeText(type: string | null): string {
  const label = type ? ERROR_TYPE_LABELS[type as keyof typeof ERROR_TYPE_LABELS] : undefined;
  return label ? `${label} (${type})` : (type ?? "ERROR");
}

export const DESCRIPTION_MAX = 1000;

export const RejectInputSchema = z.object({
  errorType: z.enum(ERROR_TYPES, { error: "Choose an error type" }),
  /** What the sender's staff will read: which field or condition is wrong. */
  description: z
    .string({ error: "Description is required" })
    .trim()
    .min(1, "Description is required: say which field or condition is wrong")
    .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`),
});
export type RejectInput = z.infer<typeof RejectInputSchema>;
