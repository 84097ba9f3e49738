"use client";
// Sends a transfer's callback again (same webhook-id, new timestamp), after the pharmacist confirms.
import { useMutation, useQueryClient } from "@tanstack/react-query";

export function RedeliverButton({ transferId }: { transferId: string }) {
  const queryClient = useQueryClient();
  const redeliver = useMutation({
    mutationFn: async () => {
      const res = await fetch(`/api/transfers/${encodeURIComponent(transferId)}/callbacks/redeliver`, { method: "POST" });
      if (!res.ok) throw new Error((await res.json().catch(() => null))?.detail ?? `redelivery failed (${res.status})`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["transfer", transferId] }),
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
      {redeliver.isError && <span role="alert" className="text-red-700">{redeliver.error.message}</span>}
      {redeliver.isSuccess && <span role="status">Queued for redelivery</span>}
    </div>
  );
}
