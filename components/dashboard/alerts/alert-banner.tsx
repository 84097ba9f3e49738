"use client";
// Shown on every dashboard screen while a pending transfer is past an alert threshold: the count
// and a link to the oldest, in a polite live region; the count also leads the tab title, and, if the person
// turned it on, a browser notification says when more transfers start waiting. Reading only: a failed poll
// shows nothing and never stands in the way of deciding.
import Link from "next/link";
import { formatMinutes } from "@/lib/alerts/alert-email";
import { useAlertNotifications, useNotificationSetting } from "@/components/dashboard/alerts/desktop-notifications";
import { NotificationToggle } from "@/components/dashboard/alerts/notification-toggle";
import { useTabTitleCount } from "@/components/dashboard/alerts/tab-title-count";
import { useAlertSummary } from "@/components/dashboard/alerts/use-alert-summary";
import type { AlertSummary } from "@/lib/alerts/alert-summary";

export function AlertBanner({
  userId,
  pollMs,
  initial,
}: {
  userId: string;
  pollMs: number;
  /** The server's summary for the first paint (null when it could not be read: the first poll then asks). */
  initial: AlertSummary | null;
}) {
  const { data } = useAlertSummary(pollMs, initial);
  const count = data?.count ?? 0;
  const capped = data?.capped ?? false;
  const oldest = data?.oldest ?? null;
  const [notify, setNotify] = useNotificationSetting(userId);
  const countText = `${count}${capped ? "+" : ""} pending transfer${count === 1 && !capped ? "" : "s"}`;
  const summary = oldest
    ? `${countText} waiting past ${formatMinutes(oldest.thresholdMinutes)}; the oldest has waited ${formatMinutes(oldest.ageMinutes)}.`
    : "";
  useTabTitleCount(count, capped);
  useAlertNotifications(notify, data?.count, summary);
  return (
    // A live region without a role: always present (so that what appears in it is announced), but no landmark
    // or status of its own while empty, on every screen.
    <div aria-live="polite" aria-atomic="true" className="print:hidden">
      {oldest && count > 0 && (
        <section aria-label="Transfer alerts" className="border-b border-amber-300 bg-amber-100 text-amber-950">
          <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-1.5 text-sm">
            <p className="font-medium">
              {summary}{" "}
              {oldest.ageMinutes >= 240
                ? "The sender's 4-hour window has closed for it."
                : `The sender treats it as failed in ${formatMinutes(240 - oldest.ageMinutes)}.`}
              {oldest.arrivedAfterHours && " It arrived after hours."}
            </p>
            <Link
              href={`/transfers/${encodeURIComponent(oldest.referenceID)}`}
              prefetch={false}
              className="rounded px-1 font-semibold text-amber-950 underline focus-visible:outline-2 focus-visible:outline-amber-900"
            >
              Open the oldest
            </Link>
            <span className="ml-auto">
              <NotificationToggle enabled={notify} onChange={setNotify} />
            </span>
          </div>
        </section>
      )}
    </div>
  );
}

/** The same switch outside the banner (the Security page), for turning it on before anything is late. */
export function AlertNotificationSetting({ userId }: { userId: string }) {
  const [notify, setNotify] = useNotificationSetting(userId);
  return <NotificationToggle enabled={notify} onChange={setNotify} />;
}
