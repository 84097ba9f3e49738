"use client";
// The audit log's filter form: edited as a draft, applied with "Apply filters"; "Export CSV" downloads
// everything the applied filters match.
import { useState } from "react";
import {
  EMPTY_AUDIT_FILTERS,
  hasAuditFilters,
  type AuditFilterState,
} from "@/components/admin/audit/audit-filter-params";
import { Button, buttonClass } from "@/components/ui/button";
import { Field } from "@/components/ui/field";

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

function ActionOptions({ actions }: { actions: string[] }) {
  return (
    <>
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
    </>
  );
}

export function AuditFilters({
  applied,
  onApply,
  exportHref,
  actions,
  users,
}: {
  applied: AuditFilterState;
  onApply: (filters: AuditFilterState) => void;
  exportHref: string;
  actions: string[];
  users: string[];
}) {
  const [draft, setDraft] = useState<AuditFilterState>(applied);
  const apply = (next: AuditFilterState) => {
    setDraft(next);
    onApply(next);
  };
  const set = (key: keyof AuditFilterState) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));
  return (
    <form
      role="search"
      aria-label="Filter the audit log"
      className="flex flex-wrap items-end gap-x-3 gap-y-2 rounded border border-slate-200 bg-white p-2"
      onSubmit={(e) => {
        e.preventDefault();
        apply({ ...draft, user: draft.user.trim(), transfer: draft.transfer.trim() });
      }}
    >
      <Field label="User" className="w-56">
        {(f) => (
          <>
            <input
              {...f}
              list="audit-user-options"
              value={draft.user}
              onChange={set("user")}
              placeholder="email, user id, cli or system"
            />
            <datalist id="audit-user-options">
              {users.map((u) => (
                <option key={u} value={u} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <Field label="Action">
        {(f) => (
          <select {...f} value={draft.action} onChange={set("action")}>
            <ActionOptions actions={actions} />
          </select>
        )}
      </Field>
      <Field label="Transfer" className="w-56">
        {(f) => (
          <input
            {...f}
            value={draft.transfer}
            onChange={set("transfer")}
            placeholder="reference ID, trf_…"
            className={`${f.className} font-mono`}
          />
        )}
      </Field>
      <Field label="From">{(f) => <input {...f} type="date" value={draft.from} onChange={set("from")} />}</Field>
      <Field label="To">{(f) => <input {...f} type="date" value={draft.to} onChange={set("to")} />}</Field>
      <Field label="Order">
        {(f) => (
          <select {...f} value={draft.order} onChange={set("order")}>
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
          </select>
        )}
      </Field>
      <Button type="submit" variant="primary">
        Apply filters
      </Button>
      {hasAuditFilters(applied) && (
        <Button variant="ghost" onClick={() => apply(EMPTY_AUDIT_FILTERS)}>
          Clear filters
        </Button>
      )}
      <a href={exportHref} download className={buttonClass("secondary", "ml-auto")}>
        Export CSV
      </a>
    </form>
  );
}
