"use client";
// Client-side sorting for the admin tables: a header button per sortable column, aria-sort on the header.
import { useMemo, useState } from "react";

export type SortDir = "ascending" | "descending";
export type SortValue = string | number | null;

export function useSort<T, K extends string>(
  rows: readonly T[],
  columns: Record<K, (row: T) => SortValue>,
  initial: { key: NoInfer<K>; dir: SortDir },
) {
  const [sort, setSort] = useState<{ key: K; dir: SortDir }>(initial);
  const sorted = useMemo(() => {
    const get = columns[sort.key];
    const factor = sort.dir === "ascending" ? 1 : -1;
    return [...rows].sort((a, b) => {
      const x = get(a);
      const y = get(b);
      if (x === y) return 0;
      if (x === null) return 1; // empty values last, either way
      if (y === null) return -1;
      if (typeof x === "number" && typeof y === "number") return (x - y) * factor;
      return String(x).localeCompare(String(y), undefined, { numeric: true, sensitivity: "base" }) * factor;
    });
  }, [rows, columns, sort]);
  const toggle = (key: K) =>
    setSort((s) => ({ key, dir: s.key === key && s.dir === "ascending" ? "descending" : "ascending" }));
  return { sorted, sort, toggle };
}

export function SortHeader<K extends string>({
  label,
  column,
  sort,
  onSort,
  className = "",
}: {
  label: string;
  column: K;
  sort: { key: K; dir: SortDir };
  onSort: (key: K) => void;
  className?: string;
}) {
  const active = sort.key === column;
  return (
    <th scope="col" aria-sort={active ? sort.dir : "none"} className={`px-2 py-1.5 ${className}`}>
      <button
        type="button"
        onClick={() => onSort(column)}
        className="inline-flex items-center gap-1 uppercase tracking-wide hover:text-slate-900"
      >
        {label}
        <span aria-hidden="true" className="text-[10px]">
          {active ? (sort.dir === "ascending" ? "▲" : "▼") : "↕"}
        </span>
      </button>
    </th>
  );
}
