"use client";
// The audit log: filters (who, action, transfer, dates), pages keyed on the record id (stable while new
// records arrive), CSV export of everything matching the filters, and the hash-chain check. Filters live
// in the URL, so a view can be bookmarked or shared with another admin.
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { apiFetch, messageOf } from "@/components/admin/api";
import { INPUT_CLASS } from "@/components/ui/field";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { TABLE_CLASS, TD_CLASS, TH_CLASS, THEAD_CLASS, TR_CLASS } from "@/components/ui/table";
import { Button, buttonClass } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import type { AuditPage, AuditRow } from "@/lib/audit/audit-query";
import type { AuditChainReport } from "@/lib/audit/verify-audit-chain";

export type AuditFilterState = {
  user: string;
  action: string;
  transfer: string;
  from: string;
  to: string;
  order: "newest" | "oldest";
};

export const EMPTY_AUDIT_FILTERS: AuditFilterState = {
  user: "",
  action: "",
  transfer: "",
  from: "",
  to: "",
  order: "newest",
};

/** The filters as the API takes them; dates are the reader's calendar days, from the start of `from` to the end of `to`. */
function apiParams(f: AuditFilterState): URLSearchParams {
  const p = new URLSearchParams();
  if (f.user) p.set("user", f.user);
  if (f.action) p.set("action", f.action);
  if (f.transfer) p.set("transfer", f.transfer);
  if (f.from) p.set("from", new Date(`${f.from}T00:00:00`).toISOString());
  if (f.to) {
    const end = new Date(`${f.to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    p.set("to", end.toISOString());
  }
  if (f.order !== "newest") p.set("order", f.order);
  return p;
}

function urlParams(f: AuditFilterState): URLSearchParams {
  const p = new URLSearchParams();
  for (const key of ["user", "action", "transfer", "from", "to"] as const) if (f[key]) p.set(key, f[key]);
  if (f.order !== "newest") p.set("order", f.order);
  return p;
}

function detailsText(details: unknown): string {
  if (details === null || details === undefined) return "";
  if (typeof details !== "object") return String(details);
  return Object.entries(details as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" · ");
}

/** The action filter's options: every action seen, grouped by its prefix, with "all of a prefix" choices. */
function actionGroups(actions: string[]): { prefix: string; actions: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const a of actions) {
    const prefix = a.includes(".") ? a.slice(0, a.indexOf(".")) : a;
    groups.set(prefix, [...(groups.get(prefix) ?? []), a]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([prefix, list]) => ({ prefix, actions: list.sort() }));
}

function AuditTableRow({ row }: { row: AuditRow }) {
  return (
    <tr className={TR_CLASS}>
      <td className={`${TD_CLASS} tabular-nums text-slate-500`}>{row.id}</td>
      <td className={`${TD_CLASS} whitespace-nowrap`}>
        <LocalTime iso={row.at} seconds />
      </td>
      <td className={TD_CLASS}>{row.actor}</td>
      <td className={`${TD_CLASS} font-mono text-xs`}>{row.action}</td>
      <td className={`${TD_CLASS} font-mono text-xs`}>
        {row.transferId ? (
          <Link
            href={`/transfers/${row.transferId}`}
            prefetch={false}
            className="text-blue-800 underline-offset-2 hover:underline"
          >
            {row.transferId}
          </Link>
        ) : null}
      </td>
      <td className={`${TD_CLASS} font-mono text-xs`}>{row.clientAddress}</td>
      <td className={`${TD_CLASS} max-w-md break-words text-xs text-slate-700`}>{detailsText(row.details)}</td>
      <td
        className={`${TD_CLASS} font-mono text-xs text-slate-500`}
        title={`hash ${row.hash}, previous ${row.prevHash}`}
      >
        {row.hash.slice(0, 10)}…
      </td>
    </tr>
  );
}

function VerifyChain() {
  const verify = useMutation({
    mutationFn: () => apiFetch<AuditChainReport>("/api/admin/audit/verify", { method: "POST" }),
  });
  const report = verify.data;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button onClick={() => verify.mutate()} disabled={verify.isPending}>
        {verify.isPending ? "Verifying…" : "Verify chain"}
      </Button>
      <StatusMessage className="font-medium">
        {report?.ok ? `Chain intact: all ${report.records.toLocaleString()} records verified.` : null}
      </StatusMessage>
      {report && !report.ok && (
        <ErrorMessage>
          Chain broken at record {report.brokenAt.id} ({report.brokenAt.action}, {report.brokenAt.at}):{" "}
          {report.brokenAt.reason}. {report.records.toLocaleString()} records before it verified.
        </ErrorMessage>
      )}
      {verify.error && <ErrorMessage>The chain could not be checked: {messageOf(verify.error)}</ErrorMessage>}
    </div>
  );
}

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
  const [draft, setDraft] = useState<AuditFilterState>(initial);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const params = useMemo(() => apiParams(filters), [filters]);

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
    const p = urlParams(filters);
    window.history.replaceState(null, "", `/admin/audit${p.size ? `?${p}` : ""}`);
  }, [filters]);

  const apply = (next: AuditFilterState) => {
    setFilters(next);
    setDraft(next);
    setCursors([]);
  };
  const set = (key: keyof AuditFilterState) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));
  const hasFilters = Boolean(filters.user || filters.action || filters.transfer || filters.from || filters.to);
  const pageNumber = cursors.length + 1;
  const label = "block text-xs font-medium text-slate-600";

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

      <form
        role="search"
        aria-label="Filter the audit log"
        className="flex flex-wrap items-end gap-x-3 gap-y-2 rounded border border-slate-200 bg-white p-2"
        onSubmit={(e) => {
          e.preventDefault();
          apply({ ...draft, user: draft.user.trim(), transfer: draft.transfer.trim() });
        }}
      >
        <div className="w-56">
          <label htmlFor="audit-user" className={label}>
            User
          </label>
          <input
            id="audit-user"
            list="audit-user-options"
            value={draft.user}
            onChange={set("user")}
            placeholder="email, user id, cli or system"
            className={INPUT_CLASS}
          />
          <datalist id="audit-user-options">
            {users.map((u) => (
              <option key={u} value={u} />
            ))}
          </datalist>
        </div>
        <div>
          <label htmlFor="audit-action" className={label}>
            Action
          </label>
          <select id="audit-action" value={draft.action} onChange={set("action")} className={INPUT_CLASS}>
            <option value="">Any action</option>
            {actionGroups(actions).map((g) => (
              <optgroup key={g.prefix} label={g.prefix}>
                {g.actions.length > 1 && <option value={`${g.prefix}.*`}>{`${g.prefix}.* (all)`}</option>}
                {g.actions.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <div className="w-56">
          <label htmlFor="audit-transfer" className={label}>
            Transfer
          </label>
          <input
            id="audit-transfer"
            value={draft.transfer}
            onChange={set("transfer")}
            placeholder="reference ID, trf_…"
            className={`${INPUT_CLASS} font-mono`}
          />
        </div>
        <div>
          <label htmlFor="audit-from" className={label}>
            From
          </label>
          <input id="audit-from" type="date" value={draft.from} onChange={set("from")} className={INPUT_CLASS} />
        </div>
        <div>
          <label htmlFor="audit-to" className={label}>
            To
          </label>
          <input id="audit-to" type="date" value={draft.to} onChange={set("to")} className={INPUT_CLASS} />
        </div>
        <div>
          <label htmlFor="audit-order" className={label}>
            Order
          </label>
          <select id="audit-order" value={draft.order} onChange={set("order")} className={INPUT_CLASS}>
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
          </select>
        </div>
        <Button type="submit" variant="primary">
          Apply filters
        </Button>
        {hasFilters && (
          <Button variant="ghost" onClick={() => apply(EMPTY_AUDIT_FILTERS)}>
            Clear filters
          </Button>
        )}
        <a
          href={`/api/admin/audit/export${params.size ? `?${params}` : ""}`}
          download
          className={buttonClass("secondary", "ml-auto")}
        >
          Export CSV
        </a>
      </form>

      {query.error && <ErrorMessage>The audit log could not be loaded: {messageOf(query.error)}</ErrorMessage>}

      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <table className={TABLE_CLASS} aria-busy={query.isFetching}>
          <caption className="sr-only">
            Audit records, {filters.order === "newest" ? "newest first" : "oldest first"}, page {pageNumber}
          </caption>
          <thead className={THEAD_CLASS}>
            <tr>
              <th scope="col" className={TH_CLASS}>
                #
              </th>
              <th scope="col" className={TH_CLASS}>
                Time
              </th>
              <th scope="col" className={TH_CLASS}>
                User
              </th>
              <th scope="col" className={TH_CLASS}>
                Action
              </th>
              <th scope="col" className={TH_CLASS}>
                Transfer
              </th>
              <th scope="col" className={TH_CLASS}>
                Client address
              </th>
              <th scope="col" className={TH_CLASS}>
                Details
              </th>
              <th scope="col" className={TH_CLASS}>
                Hash
              </th>
            </tr>
          </thead>
          <tbody>
            {page?.items.map((row) => (
              <AuditTableRow key={row.id} row={row} />
            ))}
          </tbody>
        </table>
        {page && page.items.length === 0 && (
          <p role="status" className="px-3 py-6 text-center text-slate-600">
            {hasFilters ? "No records match these filters." : "The audit log is empty."}
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
