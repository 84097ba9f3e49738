// The transfer log on screen: the decided transfers of a period, with the export's filters (the same SQL, so
// the table and the CSV always list the same transfers), one sorted page at a time. Showing patient names is
// audited like the queue (`transfers.log_viewed`, filters and count, never patient data).
import * as z from "zod";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { DomainError } from "@/lib/errors";
import { decidedFilter, parseTransferExportQuery } from "@/lib/transfers/record/export-transfers";
import { countDecided, LOG_SORTS, selectDecidedPage, type LogSort } from "@/lib/transfers/queries/decided-log";

export const LOG_PAGE_SIZE = 25;
export { LOG_SORTS, type LogSort } from "@/lib/transfers/queries/decided-log";

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
  const filter = decidedFilter(filters, filters.toDate < now ? filters.toDate : now);
  const [{ n }, rows] = await Promise.all([
    countDecided(filter).executeTakeFirstOrThrow(),
    selectDecidedPage(filter, { sort, dir, limit: LOG_PAGE_SIZE, offset: (page - 1) * LOG_PAGE_SIZE }).execute(),
  ]);
  await recordAuditEvent({
    actor,
    action: "transfers.log_viewed",
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
