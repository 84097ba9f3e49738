"use client";
// The store's immediate-confirmation policy form: on/off, the owner (a pharmacist), the state, the board rule
// relied on (required to turn it on), the listed-allergies option, the hourly cap and the verification limit.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch, messageOf } from "@/components/admin/api";
import { Button } from "@/components/ui/button";
import type { ImmediateConfirmPolicy } from "@/lib/immediate-confirm/policy-rules";

export function PolicyForm({
  storeId,
  policy,
  pharmacists,
}: {
  storeId: string;
  policy: ImmediateConfirmPolicy;
  pharmacists: { id: string; name: string }[];
}) {
  const router = useRouter();
  const [v, setV] = useState(policy);
  const [message, setMessage] = useState<string | null>(null);
  const set = <K extends keyof ImmediateConfirmPolicy>(k: K, value: ImmediateConfirmPolicy[K]) =>
    setV((p) => ({ ...p, [k]: value }));

  async function save(e: React.FormEvent) {
    e.preventDefault();
    try {
      const saved = await apiFetch<ImmediateConfirmPolicy>(`/api/admin/stores/${storeId}/immediate-confirm`, {
        method: "PUT",
        body: {
          enabled: v.enabled,
          ...(v.ownerUserId ? { ownerUserId: v.ownerUserId } : {}),
          ...(v.state ? { state: v.state } : {}),
          ...(v.boardRule ? { boardRule: v.boardRule } : {}),
          allowListedAllergies: v.allowListedAllergies,
          hourlyCap: v.hourlyCap,
          verifyWithinHours: v.verifyWithinHours,
        },
      });
      setV(saved);
      setMessage(`Saved: policy v${saved.version}, ${saved.enabled ? "on" : "off"}.`);
      router.refresh();
    } catch (err) {
      setMessage(messageOf(err));
    }
  }

  const input = "block w-full rounded border border-slate-300 px-2 py-1";
  return (
    <form onSubmit={(e) => void save(e)} className="max-w-xl space-y-3">
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={v.enabled} onChange={(e) => set("enabled", e.target.checked)} />
        Confirm qualifying transfers at once
      </label>
      <label className="block">
        Pharmacist-in-charge who owns the policy
        <select
          className={input}
          value={v.ownerUserId ?? ""}
          onChange={(e) => set("ownerUserId", e.target.value || null)}
        >
          <option value="">Choose a pharmacist</option>
          {pharmacists.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label className="block">
        The store&apos;s state (two letters)
        <input
          className={input}
          value={v.state ?? ""}
          maxLength={2}
          onChange={(e) => set("state", e.target.value || null)}
        />
      </label>
      <label className="block">
        The board rule the store relies on (required)
        <textarea
          className={input}
          rows={3}
          value={v.boardRule ?? ""}
          onChange={(e) => set("boardRule", e.target.value || null)}
        />
      </label>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={v.allowListedAllergies}
          onChange={(e) => set("allowListedAllergies", e.target.checked)}
        />
        Also when allergies are listed but none matches the drug&apos;s classes or cross-reactive classes
      </label>
      <label className="block">
        At most this many automatic confirmations an hour
        <input
          className={input}
          type="number"
          min={1}
          value={v.hourlyCap}
          onChange={(e) => set("hourlyCap", Number(e.target.value))}
        />
      </label>
      <label className="block">
        Alert when not verified within (hours)
        <input
          className={input}
          type="number"
          min={1}
          value={v.verifyWithinHours}
          onChange={(e) => set("verifyWithinHours", Number(e.target.value))}
        />
      </label>
      <Button type="submit" variant="primary">
        Save policy
      </Button>
      <p role="status" className="min-h-6 text-sm">
        {message}
      </p>
    </form>
  );
}
