"use client";
// The audit log: filters (who, action, transfer, dates), pages keyed on the record id (stable while new
// records arrive), CSV export of everything matching the filters, and the hash-chain check. Filters live
// in the URL, so a view can be bookmarked or shared with another admin.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { apiFetch, messageOf } from "@/components/admin/api";
import {
  auditApiParams,
  auditUrlParams,
  hasAuditFilters,
  type AuditFilterState,
} from "@/components/admin/audit/audit-filter-params";
import { AuditFilters } from "@/components/admin/audit/audit-filters";
import { AuditTable } from "@/components/admin/audit/audit-table";
import { VerifyChain } from "@/components/admin/audit/verify-chain";
import { ErrorMessage } from "@/components/admin/notices";
import { Button } from "@/components/ui/button";
import type { AuditPage } from "@/lib/audit/audit-query";

export type { AuditFilterState } from "@/components/admin/audit/audit-filter-params";

export function AuditView({
  initial,
  actions,
  users,
}: {
  initial: AuditFilterState;
  actions: string[];
  users: string[];
}) {
  const [filters, setFilters] = useState<AuditFilterState>(initial);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const params = useMemo(() => auditApiParams(filters), [filters]);

  const query = useQuery({
    queryKey: ["admin", "audit", filters, cursor ?? null],
    queryFn: () => {
      const p = new URLSearchParams(params);
      if (cursor) p.set("cursor", cursor);
      return apiFetch<AuditPage>(`/api/admin/audit?${p}`, { background: true });
    },
    placeholderData: keepPreviousData,
  });
  const page = query.data;

  useEffect(() => {
    const p = auditUrlParams(filters);
    window.history.replaceState(null, "", `/admin/audit${p.size ? `?${p}` : ""}`);
  }, [filters]);

  const pageNumber = cursors.length + 1;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">Audit log</h1>
        <VerifyChain />
      </div>
      <p className="text-slate-600">
        Every sign-in, view, search, decision and admin action, append-only; each record&apos;s hash covers the one
        before it, so an altered or removed record is detected by <strong>Verify chain</strong> (or{" "}
        <code className="font-mono">npm run cli -- audit verify</code>).
      </p>
      <AuditFilters
        applied={filters}
        onApply={(next) => {
          setFilters(next);
          setCursors([]);
        }}
        exportHref={`/api/admin/audit/export${params.size ? `?${params}` : ""}`}
        actions={actions}
        users={users}
      />
      {query.error && <ErrorMessage>The audit log could not be loaded: {messageOf(query.error)}</ErrorMessage>}
      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <AuditTable
          rows={page?.items}
          busy={query.isFetching}
          caption={`Audit records, ${filters.order === "newest" ? "newest first" : "oldest first"}, page ${pageNumber}`}
        />
        {page && page.items.length === 0 && (
          <p role="status" className="px-3 py-6 text-center text-slate-600">
            {hasAuditFilters(filters) ? "No records match these filters." : "The audit log is empty."}
          </p>
        )}
        {!page && !query.error && <p className="px-3 py-6 text-center text-slate-600">Loading…</p>}
      </div>
      <nav aria-label="Audit log pages" className="flex items-center gap-2">
        <Button onClick={() => setCursors((c) => c.slice(0, -1))} disabled={cursors.length === 0}>
          Previous page
        </Button>
        <span className="text-slate-600">Page {pageNumber}</span>
        <Button
          onClick={() => page?.nextCursor && setCursors((c) => [...c, page.nextCursor!])}
          disabled={!page?.nextCursor}
        >
          Next page
        </Button>
      </nav>
    </div>
  );
}
