// The queue's filters as the page starts with them (from the URL), and how they become the API's query and
// the query cache's key. Pure, so the server page that renders the first page and the screen that refreshes
// it ask the same question under the same key.
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

/** `from` and `to` are the reader's calendar days: only the browser knows where they start. */
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

export function queueQueryKey(filters: QueueFilterValues, cursor: string | undefined) {
  return ["queue", filters, cursor ?? null] as const;
}
