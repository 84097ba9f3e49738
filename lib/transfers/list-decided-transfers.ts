// The transfer log on screen: the decided transfers of a period, with the export's filters (the same SQL, so
// the table and the CSV always list the same transfers), one sorted page at a time. Showing patient names is
// audited like the queue (`transfers.log_viewed`, filters and count, never patient data).
import * as z from "zod";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { conditions, parseTransferExportQuery } from "@/lib/transfers/export-transfers";
import { Prisma } from "@/generated/prisma/client";

export const LOG_PAGE_SIZE = 25;
export const LOG_SORTS = ["decidedAt", "patient", "drug", "schedule", "outcome", "pharmacist", "sender"] as const;
export type LogSort = (typeof LOG_SORTS)[number];

const SCHEDULE = Prisma.sql`COALESCE(substr(d.drug_schedule, 2), t.drug_schedule)`;
const ORDER: Record<LogSort, Prisma.Sql> = {
  decidedAt: Prisma.sql`d.decided_at`,
  patient: Prisma.sql`lower(t.patient_last_name || ' ' || t.patient_first_name)`,
  drug: Prisma.sql`lower(t.drug_name || ' ' || t.drug_strength)`,
  schedule: SCHEDULE,
  outcome: Prisma.sql`d.decision::text`,
  pharmacist: Prisma.sql`lower(d.pharmacist_name)`,
  sender: Prisma.sql`lower(t.sending_name)`,
};

const LogPagingSchema = z.object({
  sort: z.enum(LOG_SORTS, { error: `must be one of ${LOG_SORTS.join(", ")}` }).default("decidedAt"),
  dir: z.enum(["asc", "desc"], { error: "must be asc or desc" }).default("desc"),
  page: z.coerce.number({ error: "must be a page number" }).int().min(1).max(100_000).default(1),
});

export type DecidedTransfer = {
  referenceID: string;
  decidedAt: string;
  outcome: "APPROVED" | "REJECTED";
  patient: string;
  drug: string;
  schedule: string | null;
  pharmacist: string;
  sender: string;
};

export type DecidedTransferPage = {
  total: number;
  page: number;
  pageSize: number;
  sort: LogSort;
  dir: "asc" | "desc";
  rows: DecidedTransfer[];
};

type Row = {
  id: string;
  decided_at: Date;
  decision: "APPROVED" | "REJECTED";
  patient_first_name: string;
  patient_last_name: string;
  drug_name: string;
  drug_strength: string;
  schedule: string | null;
  pharmacist_name: string;
  sending_name: string;
};

/** Validates the filters (as the export does) and the paging; a bad one is invalid_input naming the field. */
export function parseDecidedTransfersQuery(raw: Record<string, string | undefined>) {
  const filters = parseTransferExportQuery(raw);
  const given = Object.fromEntries(
    (["sort", "dir", "page"] as const).filter((k) => raw[k]?.trim()).map((k) => [k, raw[k]!.trim()]),
  );
  const paging = LogPagingSchema.safeParse(given);
  if (!paging.success) {
    throw new DomainError(
      "invalid_input",
      paging.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; "),
    );
  }
  return { filters, ...paging.data };
}

export async function listDecidedTransfers(
  query: ReturnType<typeof parseDecidedTransfersQuery>,
  actor: Actor,
): Promise<DecidedTransferPage> {
  const { filters, sort, dir, page } = query;
  const now = new Date();
  const where = Prisma.join(conditions(filters, filters.toDate < now ? filters.toDate : now), " AND ");
  const direction = dir === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const [[{ n }], rows] = await Promise.all([
    db().$queryRaw<[{ n: number }]>`
      SELECT count(*)::int AS n FROM transfer_decisions d JOIN transfers t ON t.id = d.transfer_id WHERE ${where}`,
    db().$queryRaw<Row[]>`
      SELECT t.id, d.decided_at, d.decision::text AS decision, t.patient_first_name, t.patient_last_name,
             t.drug_name, t.drug_strength, ${SCHEDULE} AS schedule, d.pharmacist_name, t.sending_name
        FROM transfer_decisions d JOIN transfers t ON t.id = d.transfer_id
       WHERE ${where}
       ORDER BY ${ORDER[sort]} ${direction} NULLS LAST, d.decided_at ${direction}, t.id ${direction}
       LIMIT ${LOG_PAGE_SIZE} OFFSET ${(page - 1) * LOG_PAGE_SIZE}`,
  ]);
  await recordAuditEvent({
    userId: actor.userId,
    actor: actor.label,
    action: "transfers.log_viewed",
    clientAddress: actor.clientAddress,
    details: {
      filters: { from: filters.from, to: filters.to, schedule: filters.schedule, outcome: filters.outcome },
      sort,
      dir,
      page,
      rows: rows.length,
      total: n,
    },
  });
  return {
    total: n,
    page,
    pageSize: LOG_PAGE_SIZE,
    sort,
    dir,
    rows: rows.map((r) => ({
      referenceID: r.id,
      decidedAt: r.decided_at.toISOString(),
      outcome: r.decision,
      patient: `${r.patient_last_name}, ${r.patient_first_name}`,
      drug: `${r.drug_name} ${r.drug_strength}`.trim(),
      schedule: r.schedule,
      pharmacist: r.pharmacist_name,
      sender: r.sending_name,
    })),
  };
}
