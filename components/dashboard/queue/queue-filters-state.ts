"use client";
// The queue's filters: what the page starts with (from the URL), how they become the API's query and the
// address bar's, and the state that changes them. Clearing is one function, used by the filter form and by
// the empty table's "Clear the filters".
import { useEffect, useState } from "react";
import { setDayRange } from "@/components/dashboard/day-range";

export type QueueInitialState = {
  status: string;
  sender: string;
  from: string;
  to: string;
  flags: string[];
  schedule: string;
  q: string;
  sort: string;
};

export type QueueFilterValues = QueueInitialState;

const CLEARED = { sender: "", from: "", to: "", flags: [], schedule: "", q: "" } satisfies Partial<QueueFilterValues>;

export function queueApiParams(f: QueueFilterValues, cursor: string | undefined): URLSearchParams {
  const p = new URLSearchParams();
  p.set("status", f.status);
  if (f.sender) p.set("sender", f.sender);
  setDayRange(p, f.from, f.to);
  if (f.flags.length) p.set("flags", f.flags.join(","));
  if (f.schedule) p.set("schedule", f.schedule);
  if (f.q) p.set("q", f.q);
  p.set("sort", f.sort);
  if (cursor) p.set("cursor", cursor);
  return p;
}

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
