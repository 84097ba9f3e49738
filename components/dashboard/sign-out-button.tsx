"use client";
import { useState } from "react";

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      className="rounded px-2 py-1 text-slate-200 hover:bg-slate-700 hover:text-white disabled:opacity-50"
      onClick={async () => {
        setBusy(true);
        await fetch("/api/session/logout", {
          method: "POST",
          credentials: "same-origin",
          body: JSON.stringify({ reason: "user" }),
        }).catch(() => {});
        window.location.assign(new URL("/login?reason=signed_out", window.location.origin).toString());
      }}
    >
      Sign out
    </button>
  );
}
