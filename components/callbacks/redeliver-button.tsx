"use client";
// Sends a transfer's callback again (same webhook-id, new timestamp), after the pharmacist confirms. The
// new attempt shows on the timeline once a worker has sent it (a moment later): the transfer's query is
// refreshed now and again shortly after.
import { useMutation, useQueryClient } from "@tanstack/react-query";

type Problem = { detail?: string; title?: string };

export function RedeliverButton({ transferId }: { transferId: string }) {
  const queryClient = useQueryClient();
  const redeliver = useMutation({
    mutationFn: async () => {
      const res = await fetch(`/api/transfers/${encodeURIComponent(transferId)}/callbacks/redeliver`, { method: "POST" });
      if (!res.ok) {
        const problem = (await res.json().catch(() => null)) as Problem | null;
        throw new Error(problem?.detail ?? problem?.title ?? `redelivery failed (${res.status})`);
      }
    },
    onSuccess: () => {
      const refresh = () => queryClient.invalidateQueries({ queryKey: ["transfer", transferId] });
      void refresh();
      for (const ms of [1_000, 3_000]) setTimeout(() => void refresh(), ms);
    },
  });
  return (
    <div className="inline-flex items-center gap-2">
      <button
        type="button"
        className="rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-100 disabled:opacity-50"
        disabled={redeliver.isPending}
        onClick={() => {
          if (window.confirm("Send this callback to the sender again?")) redeliver.mutate();
        }}
      >
        Redeliver
      </button>
      {redeliver.isError && (
        <span role="alert" className="text-red-700">
          {redeliver.error.message}
        </span>
      )}
      {redeliver.isSuccess && <span role="status">Queued for redelivery</span>}
    </div>
  );
}
