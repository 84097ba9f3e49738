// The audit log as CSV for an admin: the records matching the filters, as the log stood when the export was
// asked for; the export is itself audited.
import type { Actor } from "@/lib/audit/actor";
import { whereOf, type AuditFilters } from "@/lib/audit/audit-query";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { csvRow } from "@/lib/csv";
import { db } from "@/lib/db/prisma";

const EXPORT_BATCH = 1000;

export const AUDIT_CSV_COLUMNS = [
  "id",
  "at",
  "actor",
  "user_id",
  "action",
  "transfer_id",
  "client_address",
  "details",
  "prev_hash",
  "hash",
] as const;

function filtersOf(query: AuditFilters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ["user", "action", "transfer", "from", "to"] as const) if (query[key]) out[key] = query[key]!;
  return out;
}

export type ExportAuditLogOptions = { query: AuditFilters; actor: Actor };
export type AuditExport = { filename: string; records: number; lines: AsyncGenerator<string> };

/**
 * The records matching the filters, oldest first, as CSV lines (header first). The export is itself
 * audited (with its filters) and covers the log as it stood when it was asked for.
 */
export async function exportAuditLog({ query, actor }: ExportAuditLogOptions): Promise<AuditExport> {
  const { upTo, records } = await db().$transaction(async (tx) => {
    const last = await tx.auditEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
    const upTo = last?.id ?? BigInt(0);
    const records = await tx.auditEvent.count({ where: { AND: [...whereOf(query), { id: { lte: upTo } }] } });
    await recordAuditEvent(
      {
        actor,
        action: "audit.exported",
        details: { filters: filtersOf(query), records },
      },
      tx,
    );
    return { upTo, records };
  });
  async function* lines(): AsyncGenerator<string> {
    yield csvRow(AUDIT_CSV_COLUMNS);
    let after = BigInt(0);
    for (;;) {
      const rows = await db().auditEvent.findMany({
        where: { AND: [...whereOf(query), { id: { gt: after, lte: upTo } }] },
        orderBy: { id: "asc" },
        take: EXPORT_BATCH,
      });
      for (const e of rows) {
        yield csvRow([
          e.id.toString(),
          e.at.toISOString(),
          e.actor,
          e.userId,
          e.action,
          e.transferId,
          e.clientAddress,
          e.details ?? null,
          e.prevHash,
          e.hash,
        ]);
      }
      if (rows.length < EXPORT_BATCH) return;
      after = rows[rows.length - 1]!.id;
    }
  }
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  return { filename: `audit-log-${stamp}.csv`, records, lines: lines() };
}
