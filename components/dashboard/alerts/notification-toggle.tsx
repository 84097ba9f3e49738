"use client";
// The per-user switch for browser notifications of alerts (off by default).
import { useState } from "react";

export function NotificationToggle({
  enabled,
  onChange,
}: {
  enabled: boolean;
  onChange: (on: boolean) => Promise<string | null>;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <label className="inline-flex items-center gap-1">
        <input type="checkbox" checked={enabled} onChange={(e) => void onChange(e.target.checked).then(setProblem)} />
        Desktop notifications of alerts
      </label>
      {problem && (
        <span role="alert" className="text-red-800">
          {problem}
        </span>
      )}
    </span>
  );
}
