// The audit log as an admin reads it: filters (who acted, action, transfer, time), keyset pages on the
// record id, the CSV export, and the chain check run from the screen. Reading the log is not itself
// recorded page by page (that would bury the log in its own reads); exporting it and verifying it are.
import * as z from "zod";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { verifyAuditChain, type AuditChainReport } from "@/lib/audit/verify-audit-chain";
import { csvRow } from "@/lib/admin/csv";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import type { AuditEvent, Prisma } from "@/generated/prisma/client";

export const AUDIT_PAGE_SIZE = 50;
const EXPORT_BATCH = 1000;

export const AuditQuerySchema = z.object({
  /** Who acted: a user id, or the actor as recorded (an email, "cli", "system"). */
  user: z.string().trim().max(254).optional(),
  /** An action (`partner.created`), or every action under a prefix (`partner.*`). */
  action: z
    .string()
    .trim()
    .max(100)
    .regex(/^[a-z0-9_.]+(\*)?$/, "action must look like partner.created, or partner.* for every partner action")
    .optional(),
  transfer: z.string().trim().max(64).optional(),
  from: z.iso.datetime({ offset: true, error: "from must be an ISO 8601 date-time" }).optional(),
  to: z.iso.datetime({ offset: true, error: "to must be an ISO 8601 date-time" }).optional(),
  order: z.enum(["newest", "oldest"]).default("newest"),
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, "cursor must be a record id")
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(AUDIT_PAGE_SIZE),
});
export type AuditQuery = z.output<typeof AuditQuerySchema>;
export type AuditFilters = Pick<AuditQuery, "user" | "action" | "transfer" | "from" | "to">;

const QUERY_KEYS = ["user", "action", "transfer", "from", "to", "order", "cursor", "limit"] as const;

export function parseAuditQuery(params: URLSearchParams): AuditQuery {
  const raw: Record<string, string> = {};
  for (const key of QUERY_KEYS) {
    const value = params.get(key);
    if (value !== null && value.trim() !== "") raw[key] = value;
  }
  const parsed = AuditQuerySchema.safeParse(raw);
  if (!parsed.success) {
    throw new DomainError(
      "invalid_input",
      parsed.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; "),
    );
  }
  if (parsed.data.from && parsed.data.to && Date.parse(parsed.data.from) >= Date.parse(parsed.data.to)) {
    throw new DomainError("invalid_input", "from must be before to");
  }
  return parsed.data;
}

export type AuditRow = {
  id: string;
  at: string;
  actor: string;
  userId: string | null;
  action: string;
  transferId: string | null;
  clientAddress: string | null;
  details: unknown;
  prevHash: string;
  hash: string;
};

export type AuditPage = { items: AuditRow[]; nextCursor: string | null; serverTime: string };

function whereOf(filters: AuditFilters): Prisma.AuditEventWhereInput[] {
  const and: Prisma.AuditEventWhereInput[] = [];
  if (filters.user) and.push({ OR: [{ userId: filters.user }, { actor: filters.user.toLowerCase() }] });
  if (filters.action) {
    and.push(
      filters.action.endsWith("*")
        ? { action: { startsWith: filters.action.slice(0, -1) } }
        : { action: filters.action },
    );
  }
  if (filters.transfer) and.push({ transferId: filters.transfer });
  if (filters.from) and.push({ at: { gte: new Date(filters.from) } });
  if (filters.to) and.push({ at: { lt: new Date(filters.to) } });
  return and;
}

function rowOf(e: AuditEvent): AuditRow {
  return { ...e, id: e.id.toString(), at: e.at.toISOString(), details: e.details ?? null };
}

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

export type AuditExport = { filename: string; records: number; lines: AsyncGenerator<string> };

/**
 * The records matching the filters, oldest first, as CSV lines (header first). The export is itself
 * audited (with its filters) and covers the log as it stood when it was asked for.
 */
export async function exportAuditLog(query: AuditFilters, actor: Actor): Promise<AuditExport> {
  const { upTo, records } = await db().$transaction(async (tx) => {
    const last = await tx.auditEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
    const upTo = last?.id ?? BigInt(0);
    const records = await tx.auditEvent.count({ where: { AND: [...whereOf(query), { id: { lte: upTo } }] } });
    await recordAuditEvent(
      { userId: actor.userId, actor: actor.label, action: "audit.exported", clientAddress: actor.clientAddress, details: { filters: filtersOf(query), records } },
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

/** The chain check (lib/audit/verify-audit-chain.ts), run by an admin and recorded with its result. */
export async function verifyAuditLog(actor: Actor): Promise<AuditChainReport> {
  const report = await verifyAuditChain();
  await recordAuditEvent({
    userId: actor.userId,
    actor: actor.label,
    action: "audit.chain_verified",
    clientAddress: actor.clientAddress,
    details: report.ok
      ? { ok: true, records: report.records }
      : { ok: false, records: report.records, brokenAtId: report.brokenAt.id },
  });
  return report;
}
