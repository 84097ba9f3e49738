"use client";
// What the approve and reject dialogs share: their props, the input style, Ctrl+Enter, the error line and the
// button row.
import { Button } from "@/components/ui/button";

export type TransferSummary = {
  patient: string;
  drug: string;
  sender: string;
};

export const inputClass = "mt-0.5 w-full rounded border border-slate-300 px-2 py-1 aria-[invalid=true]:border-red-600";

/** What both decision dialogs take: the confirmation of one decision on one transfer. */
export type DecisionDialogProps<Input> = {
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
export function confirmOnCtrlEnter(event: React.KeyboardEvent<HTMLFormElement>): void {
  if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return;
  event.preventDefault();
  event.currentTarget.requestSubmit();
}

/** Why the decision did not go through (the form's own check or the server's answer), announced. */
export function DecisionError({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p role="alert" className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-900">
      {text}
    </p>
  );
}

/** Cancel, then the dialog's own confirming button. */
export function DecisionButtons({ onCancel, children }: { onCancel: () => void; children: React.ReactNode }) {
  return (
    <div className="flex justify-end gap-2 pt-1">
      <Button onClick={onCancel}>Cancel</Button>
      {children}
    </div>
  );
}
