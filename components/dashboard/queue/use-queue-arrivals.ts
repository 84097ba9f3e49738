"use client";
// New arrivals in the queue: announced to screen readers ("2 new transfers arrived") and marked "New" for a
// minute. Worked out from each answer the query returns, never from inside the query function. Answers
// under other filters say nothing about arrivals: a change of `filterKey` starts counting afresh, and the
// previous filters' page, shown while the new one loads (placeholder data), is not looked at.
import { useEffect, useState } from "react";
import type { QueuePage } from "@/lib/transfers/queue";

const NEW_FOR_MS = 60_000;

type Tracking = {
  filterKey: string;
  updatedAt: number;
  seen: Set<string> | null;
  lastPending: number | null;
  announcement: string;
  /** Reference id → when it was first seen. */
  fresh: Map<string, number>;
};

function observe(prev: Tracking, filterKey: string, page: QueuePage, updatedAt: number): Tracking {
  const base = prev.filterKey === filterKey ? prev : { ...prev, filterKey, seen: null, lastPending: null };
  const pending = page.counts.RECEIVED.count;
  let announcement = base.announcement;
  if (base.lastPending !== null && pending > base.lastPending) {
    const n = pending - base.lastPending;
    announcement = `${n} new ${n === 1 ? "transfer" : "transfers"} arrived. ${pending} pending.`;
  }
  const ids = page.items.map((i) => i.referenceID);
  const known = base.seen;
  const fresh = new Map(base.fresh);
  if (known) for (const id of ids) if (!known.has(id)) fresh.set(id, updatedAt);
  return { filterKey, updatedAt, seen: new Set([...(known ?? []), ...ids]), lastPending: pending, announcement, fresh };
}

export function useQueueArrivals({
  page,
  updatedAt,
  isPlaceholder,
  filterKey,
}: {
  page: QueuePage | undefined;
  updatedAt: number;
  isPlaceholder: boolean;
  filterKey: string;
}): { announcement: string; isNew: (referenceID: string) => boolean } {
  const [tracking, setTracking] = useState<Tracking>(() => ({
    filterKey,
    updatedAt: 0,
    seen: null,
    lastPending: null,
    announcement: "",
    fresh: new Map(),
  }));
  // Adjusting state while rendering, from the answer just rendered (React's pattern for derived state).
  if (page && !isPlaceholder && (tracking.filterKey !== filterKey || tracking.updatedAt !== updatedAt)) {
    setTracking(observe(tracking, filterKey, page, updatedAt));
  }

  // The "New" marks fade a minute after they were first seen.
  const { fresh } = tracking;
  useEffect(() => {
    if (fresh.size === 0) return;
    const oldest = Math.min(...fresh.values());
    const timer = window.setTimeout(
      () =>
        setTracking((t) => ({
          ...t,
          fresh: new Map([...t.fresh].filter(([, seenAt]) => seenAt > oldest)),
        })),
      Math.max(0, oldest + NEW_FOR_MS - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [fresh]);

  return { announcement: tracking.announcement, isNew: (id) => fresh.has(id) };
}
