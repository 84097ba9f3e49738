"use client";
// The queue's table: a row a transfer, the selected row marked once the pharmacist moves in the table, and
// what to say when there is nothing to show (filtered out, nothing waiting, still loading). The columns have
// fixed shares of a fixed layout, so rows arriving or changing on a refresh never move the columns (a narrow
// screen scrolls the table in its own region).
import { QueueRow } from "@/components/dashboard/queue/queue-row";
import { TABS } from "@/components/dashboard/queue/queue-status-tabs";
import { TABLE_CLASS, TableHead } from "@/components/ui/table";
import type { QueueItem } from "@/lib/transfers/queue";

const COLUMNS = ["Age / status", "Patient", "DOB", "Drug", "Sender", "Received", "Flags", "Reviewer"];
/** Each column's share of the table, in COLUMNS' order. */
const COLUMN_WIDTHS = ["11%", "15%", "10%", "15%", "11%", "12%", "14%", "12%"];

type Props = {
  items: QueueItem[];
  loaded: boolean;
  failed: boolean;
  status: string;
  sort: string;
  hasFilters: boolean;
  onClearFilters: () => void;
  refreshSeconds: number;
  /** Index of the row to mark, or null before the pharmacist moves in the table. */
  selected: number | null;
  isNew: (referenceID: string) => boolean;
  now: number;
  windowMs: number;
  userId: string;
  onSelect: (index: number) => void;
  onOpen: (item: QueueItem) => void;
  bodyRef: React.Ref<HTMLTableSectionElement>;
};

function EmptyQueue({
  status,
  hasFilters,
  onClearFilters,
  refreshSeconds,
}: Pick<Props, "status" | "hasFilters" | "onClearFilters" | "refreshSeconds">) {
  return (
    <div className="px-3 py-6 text-center text-slate-600" role="status">
      {hasFilters ? (
        <>
          No transfers match these filters.{" "}
          <button type="button" className="font-medium text-slate-900 underline" onClick={onClearFilters}>
            Clear the filters
          </button>{" "}
          to see the whole queue.
        </>
      ) : status === "RECEIVED" ? (
        <>
          No transfers are waiting for review. New transfers appear here on their own within {refreshSeconds} seconds.
        </>
      ) : (
        <>No transfers with this status yet.</>
      )}
    </div>
  );
}

export function QueueTable({
  items,
  loaded,
  failed,
  status,
  sort,
  hasFilters,
  onClearFilters,
  refreshSeconds,
  selected,
  isNew,
  now,
  windowMs,
  userId,
  onSelect,
  onOpen,
  bodyRef,
}: Props) {
  return (
    <div className="mt-2 overflow-x-auto rounded border border-slate-200 bg-white">
      <table className={`${TABLE_CLASS} min-w-[72rem] table-fixed`}>
        <caption className="sr-only">
          Transfers, {TABS.find((t) => t.status === status)?.label.toLowerCase()},{" "}
          {sort === "oldest" ? "oldest first" : "newest first"}
        </caption>
        <colgroup>
          {COLUMN_WIDTHS.map((width, i) => (
            <col key={COLUMNS[i]} style={{ width }} />
          ))}
        </colgroup>
        <TableHead columns={COLUMNS} />
        <tbody ref={bodyRef}>
          {items.map((item, index) => (
            <QueueRow
              key={item.referenceID}
              item={item}
              selected={index === selected}
              isNew={isNew(item.referenceID)}
              now={now}
              windowMs={windowMs}
              userId={userId}
              onSelect={() => onSelect(index)}
              onOpen={() => onOpen(item)}
            />
          ))}
        </tbody>
      </table>
      {loaded && items.length === 0 && (
        <EmptyQueue
          status={status}
          hasFilters={hasFilters}
          onClearFilters={onClearFilters}
          refreshSeconds={refreshSeconds}
        />
      )}
      {!loaded && !failed && <div className="px-3 py-6 text-center text-slate-500">Loading the queue…</div>}
    </div>
  );
}
