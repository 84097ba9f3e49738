"use client";
// Confirmation before anything destructive (revoke, suspend, disable, rotate, remove): an alertdialog named
// by its title, focus on Cancel (or on a field the dialog asks for, marked data-autofocus), Esc cancels.
// The server's refusal is shown inside the dialog, so the person reads why.
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorMessage } from "@/components/admin/notices";

export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  pendingLabel,
  variant = "danger",
  pending = false,
  error,
  onConfirm,
  onCancel,
  children,
}: {
  open: boolean;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  variant?: "danger" | "primary";
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  children?: React.ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onCancel} title={title} description={description} role="alertdialog">
      <form
        noValidate
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!pending) onConfirm();
        }}
      >
        {children}
        <ErrorMessage>{error}</ErrorMessage>
        <div className="flex justify-end gap-2">
          <Button onClick={onCancel} data-autofocus>
            Cancel
          </Button>
          <Button type="submit" variant={variant} disabled={pending}>
            {pending ? (pendingLabel ?? `${confirmLabel}…`) : confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
