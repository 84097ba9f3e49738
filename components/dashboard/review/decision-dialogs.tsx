"use client";
// Approve and Reject, each confirmed in a dialog before it is final. The forms use react-hook-form with
// the same zod schemas the API validates with (lib/transfers/decision-inputs.ts).
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { AllergyWarnings } from "@/components/dashboard/review/allergy-warnings";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import {
  ApproveInputSchema,
  DESCRIPTION_MAX,
  DRUG_SCHEDULE_LABELS,
  DRUG_SCHEDULES,
  drugScheduleOf,
  ERROR_TYPE_LABELS,
  RejectInputSchema,
  scheduleNumeral,
  type ApproveInput,
  type RejectInput,
} from "@/lib/transfers/decision-inputs";
import type { StoreRules } from "@/lib/stores/store-rules";
import { refillsSentence, reviewDrug, stricterSchedule } from "@/lib/transfers/drug-review";
import { ERROR_TYPE_MEANINGS, ERROR_TYPES, type TransferRequest } from "@/lib/transfers/wire";

export type TransferSummary = {
  patient: string;
  drug: string;
  sender: string;
};

const inputClass = "mt-0.5 w-full rounded border border-slate-300 px-2 py-1 aria-[invalid=true]:border-red-600";

/** What both decision dialogs take: the confirmation of one decision on one transfer. */
type DecisionDialogProps<Input> = {
  open: boolean;
  onClose: () => void;
  onConfirm: (input: Input) => void;
  pending: boolean;
  error: string | null;
  summary: TransferSummary;
};

/**
 * Ctrl+Enter (⌘+Enter) confirms a dialog from anywhere in its form, a text box included, where Enter only
 * starts a new line. requestSubmit() goes through the form's validation and submit handler, as a click does.
 */
function confirmOnCtrlEnter(event: React.KeyboardEvent<HTMLFormElement>): void {
  if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return;
  event.preventDefault();
  event.currentTarget.requestSubmit();
}

/** The drug's facts the approve dialog applies as the pharmacist chooses: the same rules the server enforces. */
export type ApprovalContext = { request: TransferRequest; rules: StoreRules };

export function ApproveDialog({
  open,
  onClose,
  onConfirm,
  onRejectInstead,
  pending,
  error,
  summary,
  context,
}: DecisionDialogProps<ApproveInput> & {
  context: ApprovalContext;
  onRejectInstead: (prefill: RejectPrefill) => void;
}) {
  const detected = reviewDrug(context.request, context.rules, new Date());
  const { match } = detected;
  const form = useSchemaForm(ApproveInputSchema, {
    defaultValues: {
      drugSchedule: match.schedule ? drugScheduleOf(match.schedule) : match.status === "unknown" ? undefined : null,
      oneTimeTransferConfirmed: false,
      localRxNumber: "",
      note: "",
    },
  });
  const chosen = useWatch({ control: form.control, name: "drugSchedule" });
  const drug =
    chosen === undefined
      ? detected
      : reviewDrug(context.request, context.rules, new Date(), chosen === null ? null : scheduleNumeral(chosen));
  const errors = form.formState.errors;
  const mustChoose = match.status === "unknown" && chosen === undefined;
  // Only the detected schedule or a stricter one: a pharmacist never records a laxer schedule than the drug's.
  const options = DRUG_SCHEDULES.filter(
    (s) => !match.schedule || stricterSchedule(match.schedule, scheduleNumeral(s)) === scheduleNumeral(s),
  );
  const [missing, setMissing] = useState<string | null>(null);
  const submit = form.handleSubmit((input) => {
    if (mustChoose) return setMissing("Choose the schedule: this drug is not in the controlled-substance table.");
    if (drug.needsOneTimeConfirmation && !input.oneTimeTransferConfirmed)
      return setMissing("Confirm that this prescription has not been transferred before.");
    setMissing(null);
    onConfirm(input);
  });
  const block = drug.blocks[0];
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={block ? "This transfer cannot be approved" : "Approve transfer"}
      wide
      description={
        block ? (
          <>
            {summary.drug} for <strong>{summary.patient}</strong> from {summary.sender}.
          </>
        ) : (
          <>
            Approve {summary.drug} for <strong>{summary.patient}</strong> from {summary.sender}? This is final: the
            sender receives CONFIRMED with the prescription, and the approval becomes this pharmacy&apos;s legal
            transfer record under your name. Ctrl+Enter (⌘+Enter) confirms.
          </>
        )
      }
    >
      <AllergyWarnings warnings={drug.allergyWarnings} label="Allergy warnings for this drug" />
      {block ? (
        <div className="space-y-2">
          {drug.blocks.map((b) => (
            <div key={b.rule} role="alert" className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-950">
              <p className="font-semibold">{b.title}</p>
              <p>{b.detail}</p>
            </div>
          ))}
          <div className="flex justify-end gap-2 pt-1">
            <Button onClick={onClose}>Cancel</Button>
            <Button variant="danger" data-autofocus onClick={() => onRejectInstead(block.reject)}>
              Reject with {block.reject.errorType} instead…
            </Button>
          </div>
        </div>
      ) : (
        <form
          noValidate
          onSubmit={submit}
          onKeyDown={confirmOnCtrlEnter}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          className="space-y-2"
        >
          <div>
            <label htmlFor="approve-schedule" className="font-medium">
              Drug schedule
            </label>
            <select
              id="approve-schedule"
              // A drug the tables do not know: the pharmacist starts at the choice, not at Confirm.
              data-autofocus={match.status === "unknown" ? true : undefined}
              className={inputClass}
              aria-describedby="approve-schedule-basis"
              aria-invalid={mustChoose && missing !== null}
              {...form.register("drugSchedule", {
                setValueAs: (v: string | null | undefined) =>
                  v === "" || v === null ? null : v === "choose" || v === undefined ? undefined : v,
              })}
              defaultValue={
                match.schedule ? drugScheduleOf(match.schedule) : match.status === "unknown" ? "choose" : ""
              }
            >
              {match.status === "unknown" && (
                <option value="choose" disabled>
                  Choose the schedule…
                </option>
              )}
              {!match.schedule && (
                <option value="">
                  Not a controlled substance{match.status === "not-controlled" ? " (detected)" : ""}
                </option>
              )}
              {options.map((s) => (
                <option key={s} value={s}>
                  {DRUG_SCHEDULE_LABELS[s]}
                  {match.schedule && drugScheduleOf(match.schedule) === s ? ` (detected: ${match.substance})` : ""}
                </option>
              ))}
            </select>
            <p id="approve-schedule-basis" className="mt-0.5 text-xs text-slate-700">
              {match.basis}
            </p>
          </div>
          {drug.needsOneTimeConfirmation && (
            <label className="flex items-start gap-2 rounded border border-violet-300 bg-violet-50 px-2 py-1 text-violet-950">
              <input type="checkbox" className="mt-1" {...form.register("oneTimeTransferConfirmed")} />
              <span>
                I confirm this prescription has <strong>not been transferred before</strong>: a Schedule III–V
                prescription may be transferred only once between pharmacies (21 CFR 1306.25(a)).
              </span>
            </label>
          )}
          {drug.refills?.capped && (
            <p className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-amber-950">
              {refillsSentence(drug.refills)}
            </p>
          )}
          <div>
            <label htmlFor="approve-local-rx" className="font-medium">
              Local Rx number <span className="font-normal text-slate-500">(optional, sent to the sender)</span>
            </label>
            <input
              id="approve-local-rx"
              className={inputClass}
              aria-invalid={Boolean(errors.localRxNumber)}
              aria-describedby="approve-local-rx-error"
              {...form.register("localRxNumber")}
            />
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
            <textarea
              id="approve-note"
              rows={2}
              className={inputClass}
              aria-invalid={Boolean(errors.note)}
              {...form.register("note")}
            />
            {errors.note && <p className="text-red-700">{errors.note.message}</p>}
          </div>
          {(missing || error) && (
            <p role="alert" className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-900">
              {missing ?? error}
            </p>
          )}
          <div className="flex justify-end gap-2 pt-1">
            <Button onClick={onClose}>Cancel</Button>
            <Button
              type="submit"
              variant="approve"
              disabled={pending}
              data-autofocus={match.status === "unknown" ? undefined : true}
            >
              {pending ? "Approving…" : "Confirm approval"}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** A rejection prefilled from a rule that refused approval (drug-review.ts). */
export type RejectPrefill = { errorType: string; description: string };

export function RejectDialog({
  open,
  onClose,
  onConfirm,
  pending,
  error,
  summary,
  prefill,
}: DecisionDialogProps<RejectInput> & { prefill?: RejectPrefill | null }) {
  const form = useSchemaForm(RejectInputSchema, {
    defaultValues: prefill
      ? { errorType: prefill.errorType as RejectInput["errorType"], description: prefill.description }
      : { description: "" },
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
          Reject {summary.drug} for <strong>{summary.patient}</strong> from {summary.sender}? This is final: the sender
          receives ERROR with the type and description below, and may send a corrected request.
        </>
      }
    >
      <form
        noValidate
        onSubmit={form.handleSubmit(onConfirm)}
        onKeyDown={confirmOnCtrlEnter}
        aria-keyshortcuts="Control+Enter Meta+Enter"
        className="space-y-2"
      >
        <div>
          <label htmlFor="reject-type" className="font-medium">
            Error type
          </label>
          <select
            id="reject-type"
            data-autofocus
            className={inputClass}
            defaultValue={prefill?.errorType ?? ""}
            aria-invalid={Boolean(errors.errorType)}
            aria-describedby="reject-type-help"
            {...form.register("errorType")}
          >
            <option value="" disabled>
              Choose…
            </option>
            {ERROR_TYPES.map((t) => (
              <option key={t} value={t}>
                {ERROR_TYPE_LABELS[t]} ({t})
              </option>
            ))}
          </select>
          <p id="reject-type-help" className={errors.errorType ? "text-red-700" : "text-xs text-slate-600"}>
            {errors.errorType ? (
              errors.errorType.message
            ) : type && ERROR_TYPES.includes(type) ? (
              <>
                <strong className="font-medium text-slate-800">{ERROR_TYPE_LABELS[type]}</strong>:{" "}
                {ERROR_TYPE_MEANINGS[type]}. <span className="font-mono text-[0.7rem]">Sent as error type {type}.</span>
              </>
            ) : (
              "Why the transfer is refused; the sender receives it as one of the interface's error types."
            )}
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
              : `The sender's staff read this: say exactly which field or condition is wrong (e.g. "prescription.refillsRemaining: no refills left to transfer"). Enter starts a new line; Ctrl+Enter (⌘+Enter on a Mac) confirms. ${description.length}/${DESCRIPTION_MAX}`}
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
