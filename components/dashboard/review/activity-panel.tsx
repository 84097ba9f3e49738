"use client";
// The timeline (received, viewed by whom, claimed, decided, each callback attempt) and the state of the
// sender's callback, refreshed with the review header (same query; every second while the callback is pending). Redelivery is the callbacks feature's
// own button.
import { RedeliverButton } from "@/components/callbacks/redeliver-button";
import { useTransferActivity } from "@/components/dashboard/review/use-transfer-activity";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { TimelineKind, TransferActivity } from "@/lib/transfers/record";

const DOT: Record<TimelineKind, string> = {
  received: "bg-slate-500",
  viewed: "bg-slate-300",
  claimed: "bg-sky-500",
  released: "bg-slate-400",
  approved: "bg-emerald-600",
  rejected: "bg-red-600",
  refused: "bg-amber-500",
  callback_queued: "bg-violet-400",
  callback_attempt: "bg-violet-500",
  callback_delivered: "bg-emerald-500",
  event: "bg-slate-400",
};

const CALLBACK_TONE = { PENDING: "blue", DELIVERED: "green", FAILED: "red", GONE: "red", REFUSED: "red" } as const;

export function ActivityPanel({ referenceID, initial }: { referenceID: string; initial: TransferActivity }) {
  const activity = useTransferActivity(referenceID, initial).data;
  const callback = activity.callback;
  return (
    <div className="space-y-2">
      {callback && (
        <div className="flex flex-wrap items-center gap-2 rounded border border-slate-200 bg-slate-50 px-2 py-1">
          <span className="font-medium">Callback to the sender</span>
          <Badge tone={CALLBACK_TONE[callback.status as keyof typeof CALLBACK_TONE] ?? "neutral"}>
            {callback.status}
          </Badge>
          {callback.status === "REFUSED" && (
            <span className="text-red-800">Refused by the sender, not delivered: {callback.lastError}</span>
          )}
          <span className="text-slate-600">
            {callback.attemptCount} {callback.attemptCount === 1 ? "attempt" : "attempts"}
            {callback.status === "PENDING" && callback.nextAttemptAt && (
              <>
                , next at <LocalTime iso={callback.nextAttemptAt} style="time" seconds />
              </>
            )}
          </span>
          <span className="ml-auto">
            <RedeliverButton transferId={referenceID} attempts={callback.attempts} />
          </span>
        </div>
      )}
      <ol aria-label="Timeline" className="relative space-y-1 border-l border-slate-200 pl-4">
        {activity.timeline.map((event, i) => (
          <li key={`${event.at}-${i}`} className="relative">
            <span
              aria-hidden="true"
              className={`absolute -left-[1.3rem] top-1.5 h-2 w-2 rounded-full ${DOT[event.kind]}`}
            />
            <span className="tabular-nums text-slate-500">
              <LocalTime iso={event.at} seconds />
            </span>{" "}
            <span className={event.ok === false ? "text-red-800" : ""}>{event.text}</span>
            {event.count && event.count > 1 && event.lastAt ? (
              <span className="text-slate-500">
                {" "}
                ({event.count}×, last <LocalTime iso={event.lastAt} style="time" seconds />)
              </span>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
