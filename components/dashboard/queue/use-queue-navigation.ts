"use client";
// Keyboard work in the queue: j / k (or the arrows) move through the rows, Enter opens, / searches, n / p
// page. The selected row is only marked once the pharmacist moves in the table (j / k, a click): marked from
// the start, the first row looked selected already and the first j seemed to do nothing. Other filters start
// the selection again at the first row.
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { useShortcuts } from "@/components/dashboard/use-shortcuts";
import type { QueueItem } from "@/lib/transfers/queue";

export function useQueueNavigation({
  items,
  filterKey,
  onNextPage,
  onPreviousPage,
}: {
  items: QueueItem[];
  filterKey: string;
  onNextPage: () => void;
  onPreviousPage: () => void;
}) {
  const router = useRouter();
  const searchRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [selection, setSelection] = useState({ filterKey, index: 0 });
  const [navigating, setNavigating] = useState(false);
  const raw = selection.filterKey === filterKey ? selection.index : 0;
  const selected = Math.max(0, Math.min(raw, items.length - 1));

  const select = (index: number) => {
    setNavigating(true);
    setSelection({ filterKey, index });
  };
  const focusRow = (index: number) => {
    const clamped = Math.max(0, Math.min(index, items.length - 1));
    select(clamped);
    bodyRef.current?.querySelectorAll<HTMLAnchorElement>("a[data-row-link]")[clamped]?.focus();
  };
  const open = (item: QueueItem | undefined) => {
    if (item) router.push(`/transfers/${item.referenceID}`);
  };
  /** The first j / k only brings the focus to the table (on the selected row); then they move it. */
  const move = (step: number) => {
    const inTable = bodyRef.current?.contains(document.activeElement) ?? false;
    focusRow(inTable ? selected + step : selected);
  };
  useShortcuts({
    j: () => move(1),
    ArrowDown: () => move(1),
    k: () => move(-1),
    ArrowUp: () => move(-1),
    Enter: (event) => {
      // A focused link or button handles Enter itself.
      if (event.target instanceof HTMLAnchorElement || event.target instanceof HTMLButtonElement) return false;
      open(items[selected]);
    },
    "/": () => searchRef.current?.focus(),
    n: onNextPage,
    p: onPreviousPage,
  });
  return { searchRef, bodyRef, marked: navigating ? selected : null, select, open };
}
