"use client";
// Approve, confirmed in a dialog before it is final. The drug's schedule comes from the drug tables (or, for a
// drug they do not know, from the pharmacist's explicit choice); the rules the server enforces at approval are
// applied here as the pharmacist chooses, so a refusal is explained before Confirm, not after.
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { AllergyWarnings } from "@/components/dashboard/review/allergy-warnings";
import {
  confirmOnCtrlEnter,
  DecisionButtons,
  DecisionError,
  inputClass,
  type DecisionDialogProps,
} from "@/components/dashboard/review/decision-dialog-parts";
import type { RejectPrefill } from "@/components/dashboard/review/reject-dialog";
import { useSchemaForm, type SchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { StoreRulesInZone } from "@/lib/stores/store-rules";
import {
  ApproveInputSchema,
  DRUG_SCHEDULE_LABELS,
  DRUG_SCHEDULES,
  drugScheduleOf,
  scheduleNumeral,
  type ApproveInput,
} from "@/lib/transfers/decision/client-safe";
import { refillsSentence, reviewDrug, stricterSchedule, type DrugReview } from "@/lib/transfers/review/client-safe";
import type { TransferRequest } from "@/lib/interface/client-safe";

/** The drug's facts the approve dialog applies as the pharmacist chooses: the same rules the server enforces. */
export type ApprovalContext = { request: TransferRequest; rules: StoreRulesInZone };

type ApprovalForm = SchemaForm<typeof ApproveInputSchema>;
type Match = DrugReview["match"];

/** The form, the drug as reviewed with the schedule chosen so far, and the submit that checks what must be chosen. */
function useApprovalForm(context: ApprovalContext, onConfirm: (input: ApproveInput) => void) {
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
  const mustChoose = match.status === "unknown" && chosen === undefined;
  const [missing, setMissing] = useState<string | null>(null);
  const submit = form.handleSubmit((input) => {
    if (mustChoose) return setMissing("Choose the schedule: this drug is not in the controlled-substance table.");
    if (drug.needsOneTimeConfirmation && !input.oneTimeTransferConfirmed)
      return setMissing("Confirm that this prescription has not been transferred before.");
    setMissing(null);
    onConfirm(input);
  });
  return { form, match, drug, mustChoose, missing, submit };
}

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
  const { form, match, drug, mustChoose, missing, submit } = useApprovalForm(context, onConfirm);
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
        <ApprovalBlocked drug={drug} onClose={onClose} onRejectInstead={() => onRejectInstead(block.reject)} />
      ) : (
        <form
          noValidate
          onSubmit={submit}
          onKeyDown={confirmOnCtrlEnter}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          className="space-y-2"
        >
          <ScheduleField form={form} match={match} invalid={mustChoose && missing !== null} />
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
          <OptionalApprovalFields form={form} />
          <DecisionError text={missing ?? error} />
          <DecisionButtons onCancel={onClose}>
            <Button
              type="submit"
              variant="approve"
              disabled={pending}
              data-autofocus={match.status === "unknown" ? undefined : true}
            >
              {pending ? "Approving…" : "Confirm approval"}
            </Button>
          </DecisionButtons>
        </form>
      )}
    </Dialog>
  );
}

/** A rule refuses approval: why, and the rejection it calls for, one click away. */
function ApprovalBlocked({
  drug,
  onClose,
  onRejectInstead,
}: {
  drug: DrugReview;
  onClose: () => void;
  onRejectInstead: () => void;
}) {
  return (
    <div className="space-y-2">
      {drug.blocks.map((b) => (
        <div key={b.rule} role="alert" className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-950">
          <p className="font-semibold">{b.title}</p>
          <p>{b.detail}</p>
        </div>
      ))}
      <DecisionButtons onCancel={onClose}>
        <Button variant="danger" data-autofocus onClick={onRejectInstead}>
          Reject with {drug.blocks[0]?.reject.errorType} instead…
        </Button>
      </DecisionButtons>
    </div>
  );
}

/** The schedule: the detected one or a stricter one (never laxer), or an explicit choice for an unknown drug. */
function ScheduleField({ form, match, invalid }: { form: ApprovalForm; match: Match; invalid: boolean }) {
  const options = DRUG_SCHEDULES.filter(
    (s) => !match.schedule || stricterSchedule(match.schedule, scheduleNumeral(s)) === scheduleNumeral(s),
  );
  return (
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
        aria-invalid={invalid}
        {...form.register("drugSchedule", {
          setValueAs: (v: string | null | undefined) =>
            v === "" || v === null ? null : v === "choose" || v === undefined ? undefined : v,
        })}
        defaultValue={match.schedule ? drugScheduleOf(match.schedule) : match.status === "unknown" ? "choose" : ""}
      >
        {match.status === "unknown" && (
          <option value="choose" disabled>
            Choose the schedule…
          </option>
        )}
        {!match.schedule && (
          <option value="">Not a controlled substance{match.status === "not-controlled" ? " (detected)" : ""}</option>
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
  );
}

/** The local Rx number (sent to the sender) and a note (kept with the record). */
function OptionalApprovalFields({ form }: { form: ApprovalForm }) {
  const errors = form.formState.errors;
  return (
    <>
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
    </>
  );
}
