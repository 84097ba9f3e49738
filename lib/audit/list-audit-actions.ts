// The actions the audit log holds, for the audit screen's filter.
import { db } from "@/lib/db/prisma";

/** Every action recorded so far, for the filter (a loose index scan over the (action, at) index). */
export async function listAuditActions(): Promise<string[]> {
  const rows = await db().$queryRaw<{ action: string }[]>`
    WITH RECURSIVE a AS (
      (SELECT action FROM audit_events ORDER BY action LIMIT 1)
      UNION ALL
      SELECT (SELECT e.action FROM audit_events e WHERE e.action > a.action ORDER BY e.action LIMIT 1) FROM a WHERE a.action IS NOT NULL
    )
    SELECT action FROM a WHERE action IS NOT NULL`;
  return rows.map((r) => r.action);
}
