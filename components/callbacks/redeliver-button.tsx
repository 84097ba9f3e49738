"use client";
// Sends a transfer's callback again (same webhook-id, new timestamp), after the person confirms in the app's
// dialog. Then it shows the state of that redelivery itself, from the transfer's activity (refreshed with the
// review screen): waiting for a worker, being sent, acknowledged by the sender, or failed, with the answer.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { LocalTime } from "@/components/ui/local-time";
import type { TransferActivity } from "@/lib/transfers/record";

type Problem = { detail?: string; title?: string };
type Attempt = NonNullable<TransferActivity["callback"]>["attempts"][number];

/** The first manual attempt after the redelivery was asked for, in words. */
function redeliveryState(
  attempts: Attempt[],
  askedAfter: number,
): { text: string; tone: "wait" | "ok" | "fail"; at?: string } {
  const attempt = attempts.find((a) => a.manual && a.attemptNumber > askedAfter);
  if (!attempt) return { text: "Redelivery queued: waiting for a worker to send it…", tone: "wait" };
  if (attempt.statusCode === null && attempt.error === null)
    return { text: `Redelivery (attempt ${attempt.attemptNumber}) being sent…`, tone: "wait" };
  // A 2xx is an acknowledgement unless its body said otherwise (RX_CALLBACK_ERROR: error holds it).
  if (attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300 && attempt.error === null) {
    return {
      text: `Redelivered: the sender acknowledged attempt ${attempt.attemptNumber} (HTTP ${attempt.statusCode}) at`,
      tone: "ok",
      at: attempt.startedAt,
    };
  }
  const answer =
    attempt.statusCode !== null
      ? `HTTP ${attempt.statusCode}${attempt.error ? ` (${attempt.error})` : ""}`
      : (attempt.error ?? "no answer");
  return {
    text: `Redelivery failed: attempt ${attempt.attemptNumber} got ${answer} at`,
    tone: "fail",
    at: attempt.startedAt,
  };
}

export function RedeliverButton({ transferId, attempts }: { transferId: string; attempts: Attempt[] }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  /** The highest attempt number when the redelivery was asked for; null before. */
  const [askedAfter, setAskedAfter] = useState<number | null>(null);
  const redeliver = useMutation({
    mutationFn: async () => {
      const res = await fetch(`/api/transfers/${encodeURIComponent(transferId)}/callbacks/redeliver`, {
        method: "POST",
      });
      if (!res.ok) {
        const problem = (await res.json().catch(() => null)) as Problem | null;
        throw new Error(problem?.detail ?? problem?.title ?? `redelivery failed (${res.status})`);
      }
    },
    onMutate: () => setAskedAfter(Math.max(0, ...attempts.map((a) => a.attemptNumber))),
    onSuccess: () => {
      setConfirming(false);
      const refresh = () => queryClient.invalidateQueries({ queryKey: ["transfer", transferId] });
      void refresh();
      for (const ms of [1_000, 3_000, 6_000]) setTimeout(() => void refresh(), ms);
    },
  });
  const state = redeliver.isSuccess && askedAfter !== null ? redeliveryState(attempts, askedAfter) : null;
  return (
    <div className="inline-flex items-center gap-2">
      <button
        type="button"
        className="rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-100 disabled:opacity-50"
        disabled={redeliver.isPending}
        onClick={() => {
          redeliver.reset();
          setConfirming(true);
        }}
      >
        Redeliver
      </button>
      <span
        role="status"
        className={
          state?.tone === "fail" ? "text-red-800" : state?.tone === "ok" ? "text-emerald-800" : "text-slate-700"
        }
      >
        {state && (
          <>
            {state.text}
            {state.at && (
              <>
                {" "}
                <LocalTime iso={state.at} style="time" seconds />
              </>
            )}
            {state.at && "."}
          </>
        )}
      </span>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Send the callback again?"
        description="The sender receives the same TransferResponse again now: the same webhook-id (so a receiver that already has it can ignore it), a new timestamp and signature. This is recorded in the audit log."
      >
        {redeliver.isError && (
          <p role="alert" className="mb-2 rounded border border-red-300 bg-red-50 px-2 py-1 text-red-900">
            {redeliver.error.message}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button variant="primary" data-autofocus disabled={redeliver.isPending} onClick={() => redeliver.mutate()}>
            {redeliver.isPending ? "Sending…" : "Send again"}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
