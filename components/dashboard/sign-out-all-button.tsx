"use client";
// "Sign out everywhere": ends every session of the signed-in user on the server (other computers, a
// forgotten browser, a copied cookie) and then this one, after a confirmation.
import { useState } from "react";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { beginSignOut, cancelSignOut } from "@/components/dashboard/api-client";

export function SignOutAllButton() {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="rounded px-2 py-1 text-slate-200 hover:bg-slate-700 hover:text-white"
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        Sign out everywhere
      </button>
      <ConfirmDialog
        open={open}
        title="Sign out all my sessions?"
        description="You are signed out at once on every computer and browser where you are signed in, this one included."
        confirmLabel="Sign out all my sessions"
        pendingLabel="Signing out…"
        pending={pending}
        error={error}
        onCancel={() => setOpen(false)}
        onConfirm={async () => {
          setPending(true);
          // A background request that meets the ended session must not reach the sign-in page first, as "revoked".
          beginSignOut("signed_out");
          const res = await fetch("/api/session/sign-out-all", { method: "POST", credentials: "same-origin" }).catch(
            () => null,
          );
          setPending(false);
          // 401: this session had already ended; signing in again is the way on either way.
          if (res && (res.ok || res.status === 401)) {
            window.location.assign(new URL("/login?reason=signed_out", window.location.origin).toString());
          } else {
            cancelSignOut();
            setError("The sessions could not be ended. Check the connection and try again.");
          }
        }}
      />
    </>
  );
}
