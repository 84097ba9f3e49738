// The audit log's filters: as the page starts with them, as the API takes them, and as the address bar
// shows them (so a view can be bookmarked or shared with another admin).
import { setDayRange } from "@/components/dashboard/day-range";

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

export function auditApiParams(f: AuditFilterState): URLSearchParams {
  const p = new URLSearchParams();
  if (f.user) p.set("user", f.user);
  if (f.action) p.set("action", f.action);
  if (f.transfer) p.set("transfer", f.transfer);
  setDayRange(p, f.from, f.to);
  if (f.order !== "newest") p.set("order", f.order);
  return p;
}

export function auditUrlParams(f: AuditFilterState): URLSearchParams {
  const p = new URLSearchParams();
  for (const key of ["user", "action", "transfer", "from", "to"] as const) if (f[key]) p.set(key, f[key]);
  if (f.order !== "newest") p.set("order", f.order);
  return p;
}

export function hasAuditFilters(f: AuditFilterState): boolean {
  return Boolean(f.user || f.action || f.transfer || f.from || f.to);
}
