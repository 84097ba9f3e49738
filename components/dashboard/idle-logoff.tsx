"use client";
// Automatic logoff (HIPAA 164.312(a)(2)(iii)). The person's own input (keys, pointer, wheel, touch) is
// activity; the page's timers are not. While active, the page tells the server at most every few seconds
// (POST /api/session/activity, which moves the session's last-activity time forward). Shortly before the
// limit a dialog warns; at the limit the session is ended and the sign-in page says why. The last activity
// is shared between tabs (localStorage), so working in one tab keeps the others signed in too.
// The server enforces the same limit on its own (proxy.ts), whatever this page does.
import { useCallback, useEffect, useRef, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { beginSignOut, goToLogin } from "@/components/dashboard/api-client";

const STORAGE_KEY = "rx-last-activity";
const EVENTS = ["keydown", "pointerdown", "wheel", "touchstart", "scroll"] as const;

function storedActivity(): number {
  const value = Number(window.localStorage.getItem(STORAGE_KEY));
  return Number.isFinite(value) ? value : 0;
}

export function IdleLogoff({ idleMs }: { idleMs: number }) {
  const warnMs = Math.min(60_000, Math.floor(idleMs / 4));
  const heartbeatMs = Math.min(60_000, Math.max(2_000, Math.floor(idleMs / 5)));
  const lastActivity = useRef(0);
  const lastBeat = useRef(0);
  const loggingOut = useRef(false);
  const [remaining, setRemaining] = useState<number | null>(null);

  const heartbeat = useCallback(() => {
    lastBeat.current = Date.now();
    void fetch("/api/session/activity", { method: "POST", credentials: "same-origin" }).then(
      (res) => {
        if (res.status === 401) goToLogin("idle");
      },
      () => {},
    );
  }, []);

  const markActive = useCallback(() => {
    const now = Date.now();
    lastActivity.current = now;
    window.localStorage.setItem(STORAGE_KEY, String(now));
    if (now - lastBeat.current >= heartbeatMs) heartbeat();
  }, [heartbeat, heartbeatMs]);

  useEffect(() => {
    const now = Date.now();
    lastActivity.current = now;
    lastBeat.current = now; // the page load itself was activity
    window.localStorage.setItem(STORAGE_KEY, String(now));
    const onActivity = () => markActive();
    for (const e of EVENTS) window.addEventListener(e, onActivity, { passive: true, capture: true });

    const timer = window.setInterval(() => {
      const last = Math.max(lastActivity.current, storedActivity());
      const idle = Date.now() - last;
      if (idle >= idleMs) {
        if (loggingOut.current) return;
        loggingOut.current = true;
        beginSignOut("idle");
        // No body: the reason is in the query, so nothing is left half-sent if the page goes away meanwhile.
        void fetch("/api/session/logout?reason=idle", { method: "POST", credentials: "same-origin" })
          .catch(() => {})
          .finally(() => goToLogin("idle"));
      } else if (idle >= idleMs - warnMs) {
        setRemaining(Math.ceil((idleMs - idle) / 1000));
      } else {
        setRemaining(null);
      }
    }, 1000);
    return () => {
      for (const e of EVENTS) window.removeEventListener(e, onActivity, { capture: true });
      window.clearInterval(timer);
    };
  }, [idleMs, warnMs, markActive]);

  return (
    <Dialog
      open={remaining !== null}
      role="alertdialog"
      onClose={() => {
        markActive();
        heartbeat();
        setRemaining(null);
      }}
      title="Still there?"
      description={`For patient privacy you will be signed out in ${remaining ?? 0} seconds without activity.`}
    >
      <div className="flex justify-end">
        <button
          type="button"
          data-autofocus
          className="rounded border border-slate-800 bg-slate-800 px-2.5 py-1 font-medium text-white hover:bg-slate-700"
          onClick={() => {
            markActive();
            heartbeat();
            setRemaining(null);
          }}
        >
          Stay signed in
        </button>
      </div>
    </Dialog>
  );
}
