// A labelled form field: the label names the control, a hint and the field's error describe it, and the
// error is announced (role=alert) next to the field as soon as it appears.
import { useId } from "react";

export const INPUT_CLASS =
  "mt-0.5 w-full rounded border border-slate-300 bg-white px-2 py-1 aria-[invalid=true]:border-red-600";

export type FieldControlProps = { id: string; "aria-invalid": boolean; "aria-describedby"?: string; className: string };

/** `id`: only where something outside links to the control by a fixed id (a deep link, a test). */
export function Field({
  id: fixedId,
  label,
  error,
  hint,
  className = "",
  children,
}: {
  id?: string;
  label: React.ReactNode;
  error?: string;
  hint?: React.ReactNode;
  className?: string;
  children: (control: FieldControlProps) => React.ReactNode;
}) {
  const generatedId = useId();
  const id = fixedId ?? generatedId;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-xs font-medium text-slate-700">
        {label}
      </label>
      {children({ id, "aria-invalid": Boolean(error), "aria-describedby": describedBy, className: INPUT_CLASS })}
      {hint && (
        <p id={hintId} className="mt-0.5 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="mt-0.5 text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
