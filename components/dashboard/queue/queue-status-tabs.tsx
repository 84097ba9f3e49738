// The queue's status tabs (toggle buttons), each with its count from the last page the server sent.
import type { QueuePage } from "@/lib/transfers/queue";

export const TABS = [
  { status: "RECEIVED", label: "Pending" },
  { status: "CONFIRMED", label: "Approved" },
  { status: "REJECTED", label: "Rejected" },
  { status: "all", label: "All" },
] as const;

function countText(c: { count: number; capped: boolean } | undefined): string {
  if (!c) return "";
  // One locale on the server and in every browser: the server renders the first counts.
  const text = c.count.toLocaleString("en-US");
  return c.capped ? `${text}+` : text;
}

export function QueueStatusTabs({
  status,
  counts,
  onChange,
}: {
  status: string;
  counts: QueuePage["counts"] | undefined;
  onChange: (status: string) => void;
}) {
  return (
    <div className="mt-2 flex flex-wrap items-center gap-1" role="group" aria-label="Status">
      {TABS.map((tab) => {
        const count = tab.status === "all" ? undefined : counts?.[tab.status];
        const active = status === tab.status;
        return (
          <button
            key={tab.status}
            type="button"
            aria-pressed={active}
            onClick={() => onChange(tab.status)}
            className={`rounded border px-2.5 py-1 ${active ? "border-slate-800 bg-slate-800 text-white" : "border-slate-300 bg-white hover:bg-slate-100"}`}
          >
            {tab.label}
            {count && (
              <span className={`ml-1.5 tabular-nums ${active ? "text-slate-200" : "text-slate-500"}`}>
                {countText(count)}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
