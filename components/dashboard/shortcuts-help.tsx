"use client";
// The shortcuts of the current screen: listed in a bar at the bottom, and in full in a dialog on "?".
import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { Kbd } from "@/components/ui/kbd";
import { useShortcuts } from "@/components/dashboard/use-shortcuts";

export type Shortcut = { keys: string[]; action: string };

export function ShortcutsBar({ shortcuts }: { shortcuts: Shortcut[] }) {
  const [open, setOpen] = useState(false);
  useShortcuts({ "?": () => setOpen(true) });
  return (
    <>
      <section
        aria-label="Keyboard shortcuts"
        className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 border-t border-slate-200 pt-2 text-xs text-slate-600 print:hidden"
      >
        {shortcuts.map((s) => (
          <span key={s.action} className="inline-flex items-center gap-1">
            {s.keys.map((k) => (
              <Kbd key={k}>{k}</Kbd>
            ))}
            <span>{s.action}</span>
          </span>
        ))}
        <button
          type="button"
          className="inline-flex items-center gap-1 underline-offset-2 hover:underline"
          onClick={() => setOpen(true)}
        >
          <Kbd>?</Kbd> All shortcuts
        </button>
      </section>
      <Dialog open={open} onClose={() => setOpen(false)} title="Keyboard shortcuts">
        <table className="w-full text-left">
          <tbody>
            {[
              ...shortcuts,
              { keys: ["?"], action: "Show this list" },
              { keys: ["Ctrl", "Enter"], action: "Confirm a dialog (⌘+Enter on a Mac)" },
              { keys: ["Esc"], action: "Close a dialog" },
            ].map((s) => (
              <tr key={s.action} className="border-t border-slate-100">
                <td className="py-1 pr-3">
                  <span className="inline-flex gap-1">
                    {s.keys.map((k) => (
                      <Kbd key={k}>{k}</Kbd>
                    ))}
                  </span>
                </td>
                <td className="py-1">{s.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-3 text-right">
          <button
            type="button"
            data-autofocus
            className="rounded border border-slate-300 px-2.5 py-1 hover:bg-slate-100"
            onClick={() => setOpen(false)}
          >
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}
