"use client";
// "Decide and open the next one": with the setting on, a recorded decision opens the next transfer at once,
// the same patient's next pending one first (a sender moving a whole profile), else the oldest pending one
// in the queue that nobody else holds. A queue of routine transfers is then one key per decision (a, r)
// plus the confirmation. The setting is the person's own, kept in this browser.
import { useSyncExternalStore } from "react";
import { apiFetch } from "@/components/dashboard/api-client";
import type { QueuePage } from "@/lib/transfers/queue";

const STORAGE_KEY = "rx-open-next-after-decision";
const CHANGED = "rx-open-next-changed";

function subscribe(onChange: () => void): () => void {
  window.addEventListener(CHANGED, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener("storage", onChange);
  };
}

export function useOpenNextSetting(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(
    subscribe,
    () => window.localStorage.getItem(STORAGE_KEY) === "1",
    () => false,
  );
  const set = (value: boolean) => {
    window.localStorage.setItem(STORAGE_KEY, value ? "1" : "0");
    window.dispatchEvent(new Event(CHANGED));
  };
  return [on, set];
}

/**
 * The transfer to open after deciding `referenceID`, or null when none waits. A background read: the
 * person did not ask to see the queue, and the transfer opened is audited as a view of its own.
 */
export async function findNextTransfer(opts: {
  referenceID: string;
  userId: string;
  nextForPatient: string | null;
}): Promise<string | null> {
  if (opts.nextForPatient && opts.nextForPatient !== opts.referenceID) return opts.nextForPatient;
  const page = await apiFetch<QueuePage>("/api/transfers?status=RECEIVED&sort=oldest&limit=20", { background: true });
  const next = page.items.find(
    (item) =>
      item.referenceID !== opts.referenceID &&
      item.status === "RECEIVED" &&
      (!item.claim || item.claim.heldById === opts.userId),
  );
  return next?.referenceID ?? null;
}

export function OpenNextToggle() {
  const [on, set] = useOpenNextSetting();
  return (
    <label className="inline-flex items-center gap-1.5 text-sm text-slate-700">
      <input type="checkbox" checked={on} onChange={(e) => set(e.target.checked)} />
      Open the next transfer after each decision
    </label>
  );
}
