"use client";
// Copies a block of the docs (the curl command, the example request) to the clipboard, and says so in a
// live region; where the clipboard is refused, it says how to copy by hand.
import { useState } from "react";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [status, setStatus] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus("Copied");
    } catch {
      setStatus("Could not copy automatically: select the text and press Ctrl+C (⌘C)");
    }
  };
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={() => void copy()}
        className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        {label}
      </button>
      <span role="status" className="text-xs text-emerald-800">
        {status}
      </span>
    </span>
  );
}
