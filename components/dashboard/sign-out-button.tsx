"use client";
// Sign out: ends this session on the server, then the sign-in page says so. A background request that meets
// the ended session meanwhile must not get there first with "revoked" (beginSignOut).
import { useState } from "react";
import { beginSignOut } from "@/components/dashboard/api-client";

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      className="rounded px-2 py-1 text-slate-200 hover:bg-slate-700 hover:text-white disabled:opacity-50"
      onClick={async () => {
        setBusy(true);
        beginSignOut("signed_out");
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
