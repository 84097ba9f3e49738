"use client";
// The queue's filters: how they become the address bar's (the API's query: queue-api-params.ts), and the
// state that changes them. Clearing is one function, used by the filter form and by
// the empty table's "Clear the filters".
import { useEffect, useState } from "react";
import type { QueueFilterValues, QueueInitialState } from "@/components/dashboard/queue/queue-api-params";

export type { QueueFilterValues, QueueInitialState } from "@/components/dashboard/queue/queue-api-params";

const CLEARED = { sender: "", from: "", to: "", flags: [], schedule: "", q: "" } satisfies Partial<QueueFilterValues>;

function urlParams(f: QueueFilterValues): URLSearchParams {
  const p = new URLSearchParams();
  if (f.status !== "RECEIVED") p.set("status", f.status);
  if (f.sender) p.set("sender", f.sender);
  if (f.from) p.set("from", f.from);
  if (f.to) p.set("to", f.to);
  if (f.flags.length) p.set("flags", f.flags.join(","));
  if (f.schedule) p.set("schedule", f.schedule);
  if (f.q) p.set("q", f.q);
  if (f.sort !== "oldest") p.set("sort", f.sort);
  return p;
}

/** The filters, the search box's text (applied on Enter), and the keyset cursors of the pages walked. */
export function useQueueFilters(initial: QueueInitialState) {
  const [filters, setFilters] = useState<QueueFilterValues>(initial);
  const [searchText, setSearchText] = useState(initial.q);
  const [cursors, setCursors] = useState<string[]>([]);

  useEffect(() => {
    const p = urlParams(filters);
    window.history.replaceState(null, "", `/transfers${p.size ? `?${p}` : ""}`);
  }, [filters]);

  const change = (patch: Partial<QueueFilterValues>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setCursors([]);
  };
  const clearFilters = () => {
    setSearchText("");
    change(CLEARED);
  };
  const hasFilters = Boolean(
    filters.sender || filters.from || filters.to || filters.flags.length || filters.schedule || filters.q,
  );
  return {
    filters,
    change,
    clearFilters,
    hasFilters,
    searchText,
    setSearchText,
    cursor: cursors[cursors.length - 1],
    pageNumber: cursors.length + 1,
    nextPage: (next: string | null | undefined) => {
      if (next) setCursors((c) => [...c, next]);
    },
    previousPage: () => setCursors((c) => c.slice(0, -1)),
  };
}

export type QueueFiltersState = ReturnType<typeof useQueueFilters>;
