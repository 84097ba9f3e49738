"use client";
// Approve and Reject, each confirmed in a dialog before it is final. The forms use react-hook-form with
// the same zod schemas the API validates with (lib/transfers/decision-inputs.ts).
import { useWatch } from "react-hook-form";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import {
  ApproveInputSchema,
  DESCRIPTION_MAX,
  DRUG_SCHEDULE_LABELS,
  DRUG_SCHEDULES,
  RejectInputSchema,
  type ApproveInput,
  type RejectInput,
} from "@/lib/transfers/decision-inputs";
import { ERROR_TYPE_MEANINGS, ERROR_TYPES } from "@/lib/transfers/wire";

export type TransferSummary = {
  patient: string;
  drug: string;
  sender: string;
  refillsRemaining: number;
  refillsAuthorized: number;
  writtenDate: string;
  controlledHint: boolean;
};

const inputClass = "mt-0.5 w-full rounded border border-slate-300 px-2 py-1 aria-[invalid=true]:border-red-600";

/** Federal limits that a schedule makes relevant (21 CFR 1306.22 / .25 / .08), shown before approving. */
function scheduleWarnings(schedule: string | null | undefined, t: TransferSummary): string[] {
  const warnings: string[] = [];
  if (schedule === "CII") {
    warnings.push("Schedule II: only an electronic prescription's initial fill may be transferred; there are no refills.");
    if (t.refillsRemaining > 0) warnings.push(`This prescription shows ${t.refillsRemaining} refills remaining, which a Schedule II prescription cannot have.`);
  }
  if (schedule === "CIII" || schedule === "CIV" || schedule === "CV") {
    warnings.push("Schedule III–V: refills may be transferred only once between pharmacies that do not share a real-time database.");
  }
  if (schedule === "CIII" || schedule === "CIV") {
    const written = new Date(t.writtenDate).getTime();
    if (Date.now() - written > 183 * 86_400_000) warnings.push("Written more than 6 months ago: a Schedule III/IV prescription has expired (21 CFR 1306.22).");
    if (t.refillsAuthorized - 1 > 5) warnings.push("More than 5 refills authorized: a Schedule III/IV prescription allows at most 5.");
  }
  return warnings;
}

/** What both decision dialogs take: the confirmation of one decision on one transfer. */
type DecisionDialogProps<Input> = {
  open: boolean;
  onClose: () => void;
  onConfirm: (input: Input) => void;
  pending: boolean;
  error: string | null;
  summary: TransferSummary;
};

export function ApproveDialog({
  open,
  onClose,
  onConfirm,
  pending,
  error,
  summary,
}: DecisionDialogProps<ApproveInput>) {
  const form = useSchemaForm(ApproveInputSchema, {
    defaultValues: { drugSchedule: null, localRxNumber: "", note: "" },
  });
  const schedule = useWatch({ control: form.control, name: "drugSchedule" });
  const warnings = scheduleWarnings(schedule, summary);
  const errors = form.formState.errors;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Approve transfer"
      wide
      description={
        <>
          Approve {summary.drug} for <strong>{summary.patient}</strong> from {summary.sender}? This is final: the sender receives CONFIRMED with the
          prescription, and the approval becomes this pharmacy&apos;s legal transfer record under your name.
        </>
      }
    >
      <form noValidate onSubmit={form.handleSubmit(onConfirm)} className="space-y-2">
        <div>
          <label htmlFor="approve-schedule" className="font-medium">
            Drug schedule
          </label>
          <select
            id="approve-schedule"
            className={inputClass}
            {...form.register("drugSchedule", { setValueAs: (v: string) => (v === "" || v === null ? null : v) })}
          >
            <option value="">Not a controlled substance</option>
            {DRUG_SCHEDULES.map((s) => (
              <option key={s} value={s}>
                {DRUG_SCHEDULE_LABELS[s]}
              </option>
            ))}
          </select>
          {summary.controlledHint && <p className="mt-0.5 text-xs text-violet-800">The prescriber sent a DEA number: check whether this drug is controlled.</p>}
        </div>
        {warnings.length > 0 && (
          <ul className="list-disc rounded border border-amber-300 bg-amber-50 py-1 pl-6 pr-2 text-amber-950">
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        )}
        <div>
          <label htmlFor="approve-local-rx" className="font-medium">
            Local Rx number <span className="font-normal text-slate-500">(optional, sent to the sender)</span>
          </label>
          <input id="approve-local-rx" className={inputClass} aria-invalid={Boolean(errors.localRxNumber)} aria-describedby="approve-local-rx-error" {...form.register("localRxNumber")} />
          {errors.localRxNumber && (
            <p id="approve-local-rx-error" className="text-red-700">
              {errors.localRxNumber.message}
            </p>
          )}
        </div>
        <div>
          <label htmlFor="approve-note" className="font-medium">
            Note <span className="font-normal text-slate-500">(optional, kept with the record)</span>
          </label>
          <textarea id="approve-note" rows={2} className={inputClass} aria-invalid={Boolean(errors.note)} {...form.register("note")} />
          {errors.note && <p className="text-red-700">{errors.note.message}</p>}
        </div>
        {error && (
          <p role="alert" className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-900">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2 pt-1">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="approve" disabled={pending} data-autofocus>
            {pending ? "Approving…" : "Confirm approval"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function RejectDialog({
  open,
  onClose,
  onConfirm,
  pending,
  error,
  summary,
}: DecisionDialogProps<RejectInput>) {
  const form = useSchemaForm(RejectInputSchema, {
    defaultValues: { description: "" },
  });
  const errors = form.formState.errors;
  const type = useWatch({ control: form.control, name: "errorType" });
  const description = useWatch({ control: form.control, name: "description" }) ?? "";
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Reject transfer"
      wide
      description={
        <>
          Reject {summary.drug} for <strong>{summary.patient}</strong> from {summary.sender}? This is final: the sender receives ERROR with the type
          and description below, and may send a corrected request.
        </>
      }
    >
      <form noValidate onSubmit={form.handleSubmit(onConfirm)} className="space-y-2">
        <div>
          <label htmlFor="reject-type" className="font-medium">
            Error type
          </label>
          <select
            id="reject-type"
            data-autofocus
            className={inputClass}
            defaultValue=""
            aria-invalid={Boolean(errors.errorType)}
            aria-describedby="reject-type-help"
            {...form.register("errorType")}
          >
            <option value="" disabled>
              Choose…
            </option>
            {ERROR_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <p id="reject-type-help" className={errors.errorType ? "text-red-700" : "text-xs text-slate-600"}>
            {errors.errorType ? errors.errorType.message : type && ERROR_TYPES.includes(type) ? `${type}: ${ERROR_TYPE_MEANINGS[type]}` : "The class of problem, as the interface defines it."}
          </p>
        </div>
        <div>
          <label htmlFor="reject-description" className="font-medium">
            Description
          </label>
          <textarea
            id="reject-description"
            rows={3}
            required
            maxLength={DESCRIPTION_MAX}
            className={inputClass}
            aria-invalid={Boolean(errors.description)}
            aria-describedby="reject-description-help"
            {...form.register("description")}
          />
          <p id="reject-description-help" className={errors.description ? "text-red-700" : "text-xs text-slate-600"}>
            {errors.description
              ? errors.description.message
              : `The sender's staff read this: say exactly which field or condition is wrong (e.g. "prescription.refillsRemaining: no refills left to transfer"). ${description.length}/${DESCRIPTION_MAX}`}
          </p>
        </div>
        {error && (
          <p role="alert" className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-900">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2 pt-1">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="danger" disabled={pending}>
            {pending ? "Rejecting…" : "Confirm rejection"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
