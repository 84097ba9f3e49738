// The audit log's filters as an admin gives them (who acted, action, transfer, time; keyset pages on the
// record id), checked, and the rows as the screen shows them. No database access: the audit screen's client
// code takes its types from here.
import * as z from "zod";
import type { AuditEvent, Prisma } from "@/generated/prisma/client";
import { DomainError } from "@/lib/errors";

export const AUDIT_PAGE_SIZE = 50;
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

export function whereOf(filters: AuditFilters): Prisma.AuditEventWhereInput[] {
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

export function rowOf(e: AuditEvent): AuditRow {
  return { ...e, id: e.id.toString(), at: e.at.toISOString(), details: e.details ?? null };
}
