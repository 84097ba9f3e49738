"use client";
// The transfer log on screen: the decided transfers of the form's period and filters, one page of 25 at a
// time, sorted on the server by the column chosen (decision time, newest first, to begin with).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { SortHeader, type SortDir } from "@/components/admin/sortable";
import { apiFetch } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { TABLE_CLASS, TD_CLASS, TH_CLASS, THEAD_CLASS, TR_CLASS } from "@/components/ui/table";
import type { DecidedTransferPage, LogSort } from "@/lib/transfers/record";

export function TransferLogTable({ params, valid }: { params: URLSearchParams; valid: boolean }) {
  const [sort, setSort] = useState<{ key: LogSort; dir: SortDir }>({ key: "decidedAt", dir: "descending" });
  const [page, setPage] = useState(1);
  const [forFilters, setForFilters] = useState(params.toString());
  // New filters start again on the first page.
  if (forFilters !== params.toString()) {
    setForFilters(params.toString());
    setPage(1);
  }
  const query = useQuery({
    queryKey: ["transfer-log", params.toString(), sort, page],
    queryFn: () => {
      const p = new URLSearchParams(params);
      p.set("sort", sort.key);
      p.set("dir", sort.dir === "ascending" ? "asc" : "desc");
      p.set("page", String(page));
      return apiFetch<DecidedTransferPage>(`/api/transfers/log?${p}`);
    },
    enabled: valid,
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const onSort = (key: LogSort) => {
    setPage(1);
    setSort((s) => ({ key, dir: s.key === key && s.dir === "ascending" ? "descending" : "ascending" }));
  };
  const header = (label: string, column: LogSort) => (
    <SortHeader label={label} column={column} sort={sort} onSort={onSort} />
  );

  return (
    <section aria-labelledby="log-table-heading" className="space-y-2 rounded border border-slate-200 bg-white p-3">
      <h2 id="log-table-heading" className="font-semibold">
        Decided transfers{data ? ` (${data.total})` : ""}
      </h2>
      {query.error && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-900">
          The transfers could not be loaded: {query.error.message}
        </p>
      )}
      <div className="overflow-x-auto">
        <table className={TABLE_CLASS} aria-busy={query.isFetching}>
          <caption className="sr-only">
            Decided transfers of the period, page {page} of {pages}
          </caption>
          <thead className={THEAD_CLASS}>
            <tr>
              {header("Decided", "decidedAt")}
              {header("Patient", "patient")}
              {header("Drug", "drug")}
              {header("Schedule", "schedule")}
              {header("Outcome", "outcome")}
              {header("Pharmacist", "pharmacist")}
              {header("Sender", "sender")}
            </tr>
          </thead>
          <tbody>
            {data?.rows.map((r) => (
              <tr key={r.referenceID} className={TR_CLASS}>
                <td className={`${TD_CLASS} whitespace-nowrap`}>
                  <LocalTime iso={r.decidedAt} />
                </td>
                <td className={TD_CLASS}>
                  <Link href={`/transfers/${r.referenceID}`} prefetch={false} className="underline">
                    {r.patient}
                  </Link>
                </td>
                <td className={TD_CLASS}>{r.drug}</td>
                <td className={TD_CLASS}>{r.schedule && r.schedule !== "none" ? r.schedule : "—"}</td>
                <td className={TD_CLASS}>{r.outcome === "APPROVED" ? "Approved" : "Rejected"}</td>
                <td className={TD_CLASS}>{r.pharmacist}</td>
                <td className={TD_CLASS}>{r.sender}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && data.rows.length === 0 && (
          <p role="status" className="px-3 py-4 text-center text-slate-600">
            No decided transfers match this period and these filters.
          </p>
        )}
        {valid && !data && !query.error && <p className={`${TH_CLASS} text-slate-600`}>Loading…</p>}
      </div>
      <nav aria-label="Transfer log pages" className="flex flex-wrap items-center gap-2">
        <Button onClick={() => setPage((p) => p - 1)} disabled={page <= 1}>
          Previous page
        </Button>
        <span className="text-slate-600">
          Page {page} of {pages}
        </span>
        <Button onClick={() => setPage((p) => p + 1)} disabled={page >= pages}>
          Next page
        </Button>
      </nav>
    </section>
  );
}
