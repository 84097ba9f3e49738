"use client";
// "Confirmed automatically, to verify": j / k move, v verifies the selected transfer (one key, like approve), c
// raises a concern about it (a note; the sender's contact is shown with the row).
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch, ApiError } from "@/components/dashboard/api-client";
import { useShortcuts } from "@/components/dashboard/use-shortcuts";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";

export type ToVerifyRow = {
  transferId: string;
  patient: string;
  drug: string;
  senderText: string;
  confirmedAt: string;
  policyVersion: number;
  ownerName: string;
  concernNote: string | null;
  overdue: boolean;
};

export function ToVerifyList({ rows: initial }: { rows: ToVerifyRow[] }) {
  const router = useRouter();
  const [rows, setRows] = useState(initial);
  const [selected, setSelected] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const current = rows[selected];

  async function verify(row: ToVerifyRow | undefined) {
    if (!row) return;
    try {
      const done = await apiFetch<{ record: string }>(`/api/transfers/${row.transferId}/verify`, { method: "POST" });
      setRows((rs) => rs.filter((r) => r.transferId !== row.transferId));
      setSelected((i) => Math.max(0, Math.min(i, rows.length - 2)));
      setNotice(`Verified ${row.transferId}: ${done.record}.`);
      router.refresh();
    } catch (err) {
      setNotice(err instanceof ApiError && err.problem ? err.problem.detail : `Could not verify ${row.transferId}.`);
    }
  }

  async function concern(row: ToVerifyRow | undefined) {
    if (!row) return;
    const note = window.prompt(`Concern about ${row.transferId} (the sender: ${row.senderText})`);
    if (!note) return;
    try {
      await apiFetch(`/api/transfers/${row.transferId}/concern`, { method: "POST", body: { note } });
      setRows((rs) => rs.map((r) => (r.transferId === row.transferId ? { ...r, concernNote: note } : r)));
      setNotice(`Concern noted on ${row.transferId}. Call the sender: ${row.senderText}.`);
    } catch (err) {
      setNotice(err instanceof ApiError && err.problem ? err.problem.detail : `Could not note the concern.`);
    }
  }

  useShortcuts({
    j: () => setSelected((i) => Math.min(i + 1, rows.length - 1)),
    k: () => setSelected((i) => Math.max(i - 1, 0)),
    v: () => void verify(current),
    c: () => void concern(current),
  });

  return (
    <div className="space-y-3">
      <p role="status" aria-live="polite" className="min-h-6 text-sm">
        {notice}
      </p>
      {rows.length === 0 ? (
        <p>Nothing to verify.</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-slate-600">
              <th className="py-1">Transfer</th>
              <th>Patient</th>
              <th>Drug</th>
              <th>Confirmed</th>
              <th>Sender</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr
                key={r.transferId}
                data-testid="to-verify-row"
                aria-selected={i === selected}
                className={`border-t border-slate-200 align-top ${i === selected ? "bg-blue-50" : ""}`}
                onClick={() => setSelected(i)}
              >
                <td className="py-1 font-mono">{r.transferId}</td>
                <td>{r.patient}</td>
                <td>{r.drug}</td>
                <td>
                  <LocalTime iso={r.confirmedAt} /> under policy v{r.policyVersion} (owner: {r.ownerName})
                  {r.overdue && <span className="ml-1 font-medium text-red-700">past the verification limit</span>}
                </td>
                <td>
                  {r.senderText}
                  {r.concernNote && <p className="text-amber-800">Concern: {r.concernNote}</p>}
                </td>
                <td className="space-x-2 whitespace-nowrap">
                  <Button onClick={() => void verify(r)}>Verify (v)</Button>
                  <Button onClick={() => void concern(r)}>Concern (c)</Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
