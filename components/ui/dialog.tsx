"use client";
// A modal dialog on the native <dialog> element: showModal() makes the rest of the page inert (focus stays
// inside), Esc cancels, and the title names it for assistive technology. The element marked
// data-autofocus gets the focus when it opens.
import { useEffect, useId, useRef } from "react";

export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  role = "dialog",
  wide = false,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
  role?: "dialog" | "alertdialog";
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal() focuses the first focusable element; a dialog may name a better one (data-autofocus).
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      aria-modal="true"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className={`m-auto w-[calc(100%-2rem)] rounded-md border border-slate-300 bg-white p-0 text-sm text-slate-900 shadow-xl backdrop:bg-slate-900/40 ${wide ? "max-w-2xl" : "max-w-lg"}`}
    >
      {open && (
        <div className="p-4">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          {description && (
            <div id={descriptionId} className="mt-1 text-slate-600">
              {description}
            </div>
          )}
          <div className="mt-3">{children}</div>
        </div>
      )}
    </dialog>
  );
}
