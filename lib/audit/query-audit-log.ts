// One page of the audit log as an admin reads it. Reading the log is not itself recorded page by page (that
// would bury the log in its own reads); exporting it and verifying it are.
import { db } from "@/lib/db/prisma";
import { rowOf, whereOf, type AuditPage, type AuditQuery } from "@/lib/audit/audit-query";

/** One page, newest (or oldest) first, keyset on the record id: stable while records are appended. */
export async function queryAuditLog(query: AuditQuery): Promise<AuditPage> {
  const and = whereOf(query);
  const newest = query.order === "newest";
  if (query.cursor) and.push({ id: newest ? { lt: BigInt(query.cursor) } : { gt: BigInt(query.cursor) } });
  const rows = await db().auditEvent.findMany({
    where: { AND: and },
    orderBy: { id: newest ? "desc" : "asc" },
    take: query.limit + 1,
  });
  const items = rows.slice(0, query.limit).map(rowOf);
  const nextCursor = rows.length > query.limit ? (items[items.length - 1]?.id ?? null) : null;
  return { items, nextCursor, serverTime: new Date().toISOString() };
}
