// The actions the audit log holds, for the audit screen's filter.
import { selectAuditActions } from "@/lib/audit/sql";

/** Every action recorded so far, for the filter (a loose index scan over the (action, at) index). */
export async function listAuditActions(): Promise<string[]> {
  const rows = await selectAuditActions().execute();
  return rows.flatMap((r) => (r.action === null ? [] : [r.action]));
}
