// Walks the audit log in order and recomputes every hash: the first record whose content, or whose link
// to the record before it, does not match is reported (an edit, an insertion or a removal).
import { db } from "@/lib/db/prisma";
import { auditHash, GENESIS_HASH } from "@/lib/audit/record-audit-event";

export type AuditChainReport =
  | { ok: true; records: number }
  | { ok: false; records: number; brokenAt: { id: string; at: string; action: string; reason: string } };

const BATCH = 2000;

export async function verifyAuditChain(): Promise<AuditChainReport> {
  let prevHash = GENESIS_HASH;
  let afterId = BigInt(0);
  let records = 0;
  for (;;) {
    const rows = await db().auditEvent.findMany({ where: { id: { gt: afterId } }, orderBy: { id: "asc" }, take: BATCH });
    for (const row of rows) {
      const broken = (reason: string): AuditChainReport => ({
        ok: false,
        records,
        brokenAt: { id: row.id.toString(), at: row.at.toISOString(), action: row.action, reason },
      });
      if (row.prevHash !== prevHash) return broken("its link to the previous record does not match (a record before it was removed or altered)");
      if (auditHash(row.prevHash, row) !== row.hash) return broken("its content does not match its hash (the record was altered)");
      prevHash = row.hash;
      afterId = row.id;
      records++;
    }
    if (rows.length < BATCH) return { ok: true, records };
  }
}
