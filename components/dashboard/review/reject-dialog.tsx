"use client";
// Reject, confirmed in a dialog before it is final: the interface's error type and a description the sender's
// staff read. react-hook-form with the zod schema the API validates with (lib/transfers/decision/decision-inputs.ts).
import { useWatch } from "react-hook-form";
import {
  confirmOnCtrlEnter,
  DecisionButtons,
  DecisionError,
  inputClass,
  type DecisionDialogProps,
} from "@/components/dashboard/review/decision-dialog-parts";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import {
  DESCRIPTION_MAX,
  ERROR_TYPE_LABELS,
  RejectInputSchema,
  type RejectInput,
} from "@/lib/transfers/decision/client-safe";
import { ERROR_TYPE_MEANINGS, ERROR_TYPES } from "@/lib/interface/client-safe";

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
        <DecisionError text={error} />
        <DecisionButtons onCancel={onClose}>
          <Button type="submit" variant="danger" disabled={pending}>
            {pending ? "Rejecting…" : "Confirm rejection"}
          </Button>
        </DecisionButtons>
      </form>
    </Dialog>
  );
}
