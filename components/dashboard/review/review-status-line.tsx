"use client";
// The review header's status line: the decision badge, the time waited against the sender's window (ticking),
// and who holds the claim.
import { useEffect, useState } from "react";
import { ageLevel, formatDuration, type AgeLevel } from "@/components/dashboard/format";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { TransferActivity } from "@/lib/transfers/record";

const AGE_LOOK: Record<AgeLevel, string> = {
  overdue: "border-red-700 bg-red-700 text-white",
  urgent: "border-orange-400 bg-orange-100",
  late: "border-amber-300 bg-amber-50",
  waiting: "border-slate-300 bg-white",
  fresh: "border-slate-300 bg-white",
};

export function ReviewStatusLine({
  activity,
  userId,
  isPharmacist,
  windowMs,
  storeTimeZone,
}: {
  activity: TransferActivity;
  userId: string;
  isPharmacist: boolean;
  windowMs: number;
  storeTimeZone: string;
}) {
  // From the server's clock at first, so the server's HTML and the browser's first render say the same age
  // (a fresh transfer's age is in seconds); the browser's clock from the first tick on.
  const [now, setNow] = useState(() => new Date(activity.serverTime).getTime());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 15_000);
    return () => window.clearInterval(timer);
  }, []);
  const pending = activity.status === "RECEIVED";
  const claim = activity.claim;
  const age = Math.max(0, now - new Date(activity.receivedAt).getTime());
  const level = ageLevel(age, windowMs);
  const windowEnd = new Date(new Date(activity.receivedAt).getTime() + windowMs).toISOString();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span aria-label="Status">
        {pending ? (
          <Badge tone="blue">Pending review</Badge>
        ) : activity.decision?.decision === "APPROVED" ? (
          <Badge tone="green">Approved</Badge>
        ) : activity.status === "CONFIRMED" ? (
          // No pharmacist decision: confirmed at intake under the store's policy (lib/immediate-confirm).
          <Badge tone="green">Confirmed automatically</Badge>
        ) : (
          <Badge tone="red">Rejected</Badge>
        )}
      </span>
      {pending && (
        <span className={`rounded border px-1.5 py-px text-xs tabular-nums ${AGE_LOOK[level]}`}>
          Waiting {formatDuration(age)} ·{" "}
          {age < windowMs
            ? `${formatDuration(windowMs - age)} left of the sender's 4-hour window`
            : "past the sender's 4-hour window"}{" "}
          (it ends <LocalTime iso={windowEnd} style="time" timeZone={storeTimeZone} /> store time)
        </span>
      )}
      <span role="status" aria-live="polite" className="text-slate-700">
        {pending &&
          claim &&
          (claim.heldById === userId ? (
            <>You are reviewing this transfer.</>
          ) : (
            <>
              Being reviewed by <strong>{claim.heldBy}</strong> (claim until{" "}
              <LocalTime iso={claim.claimExpiresAt} style="time" />
              ).
            </>
          ))}
        {pending && !claim && isPharmacist && "Not claimed."}
      </span>
    </div>
  );
}
