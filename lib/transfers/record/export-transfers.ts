// The transfer log for inspections: the decided transfers of a date range (on the decision date), as CSV, with
// every element of the legal transfer record (lib/transfers/record/transfer-record.ts) as a column, so the export and
// the printed record can never disagree. One header row of the elements' keys: the labels repeat across the
// record's sections ("Address", "DEA", "NPI"), the keys do not. Streamed in keyset batches on
// (decided_at, transfer_id), so "every controlled-substance transfer of the last two years" never sits in memory.
// Every export is audited with its filters and row count (never patient data).
import * as z from "zod";
import { csvRow } from "@/lib/csv";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { SCHEDULES, scheduleNumeralOf, type AllergyWarning } from "@/lib/drugs";
import { DomainError } from "@/lib/errors";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import type { DecisionRecord } from "@/lib/transfers/review";
import { buildTransferRecord, type RecordSection, type RecordStore } from "@/lib/transfers/record/transfer-record";
import { TransferRequestSchema, type Address, type TransferResponse } from "@/lib/interface";
import { countDecided, selectExportBatch, type DecidedFilter } from "@/lib/transfers/queries/decided-log";
import type { RowOf } from "@/lib/db/kysely";

export const EXPORT_BATCH = 500;
/** The first batch is small, so the download starts (its first page arrives) before a whole batch is built. */
export const EXPORT_FIRST_BATCH = 50;

/** `any`: every controlled schedule (II-V); `all`: every transfer, controlled or not (the default). */
export const EXPORT_SCHEDULES = [...SCHEDULES, "any", "all"] as const;
export const EXPORT_OUTCOMES = ["approved", "rejected", "any"] as const;
export type ExportSchedule = (typeof EXPORT_SCHEDULES)[number];
export type ExportOutcome = (typeof EXPORT_OUTCOMES)[number];

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const instant = z
  .string({ error: "is required: an ISO 8601 date (2026-01-31) or date-time (2026-01-31T05:00:00Z)" })
  .trim()
  .refine((v) => z.iso.date().safeParse(v).success || z.iso.datetime({ offset: true }).safeParse(v).success, {
    message: "must be an ISO 8601 date (2026-01-31, midnight UTC) or date-time with a zone (2026-01-31T05:00:00Z)",
  });

export const TransferExportQuerySchema = z.object({
  from: instant,
  to: instant,
  schedule: z
    .string()
    .trim()
    .transform((v) => {
      const lower = v.toLowerCase();
      return lower === "any" || lower === "all" ? lower : scheduleNumeralOf(v);
    })
    .pipe(
      z.enum(EXPORT_SCHEDULES, { error: `must be ${SCHEDULES.join(", ")}, any (every controlled schedule) or all` }),
    )
    .default("all"),
  outcome: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(EXPORT_OUTCOMES, { error: "must be approved, rejected or any" }))
    .default("approved"),
});

/** The filters as given (dates as typed, for the file name and the audit record) and as instants. */
export type TransferExportQuery = {
  from: string;
  to: string;
  schedule: ExportSchedule;
  outcome: ExportOutcome;
  fromDate: Date;
  toDate: Date;
};

/** Validates the export's filters (query string or CLI options); a bad one is invalid_input naming the field. */
export function parseTransferExportQuery(raw: Record<string, string | undefined>): TransferExportQuery {
  const given: Record<string, string> = {};
  for (const key of ["from", "to", "schedule", "outcome"] as const) {
    const value = raw[key];
    if (value !== undefined && value.trim() !== "") given[key] = value;
  }
  const parsed = TransferExportQuerySchema.safeParse(given);
  if (!parsed.success) {
    throw new DomainError(
      "invalid_input",
      parsed.error.issues.map((i) => `${i.path.join(".") || "query"} ${i.message}`).join("; "),
    );
  }
  const { from, to, schedule, outcome } = parsed.data;
  const fromDate = new Date(DATE_ONLY.test(from) ? `${from}T00:00:00Z` : from);
  const toDate = new Date(DATE_ONLY.test(to) ? `${to}T00:00:00Z` : to);
  if (Number.isNaN(fromDate.getTime())) throw new DomainError("invalid_input", `from ${from} is not a date`);
  if (Number.isNaN(toDate.getTime())) throw new DomainError("invalid_input", `to ${to} is not a date`);
  if (fromDate >= toDate)
    throw new DomainError("invalid_input", `from (${from}) must be before to (${to}); to is exclusive`);
  return { from, to, schedule, outcome, fromDate, toDate };
}

/** "2024-11-23" stays as typed; an instant becomes 20241123T050000Z (no colons: they break file names). */
function fileStamp(given: string, date: Date): string {
  return DATE_ONLY.test(given)
    ? given
    : date
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z")
        .replace(/[-:]/g, "");
}

export function exportFilename(query: Pick<TransferExportQuery, "from" | "to" | "fromDate" | "toDate">): string {
  return `transfers-${fileStamp(query.from, query.fromDate)}-${fileStamp(query.to, query.toDate)}.csv`;
}

/**
 * The record's element keys, in the record's order: the union over an approval and a rejection (a rejection
 * has the sender's reason, an approval does not). Taken from the record builder itself, with a fixture as
 * the sample, so a new element of the record becomes a new column without anyone listing it twice.
 */
function recordColumns(): string[] {
  const request = buildTransferRequest({}, { now: new Date("2026-01-01T00:00:00Z") });
  const decision = (kind: DecisionRecord["decision"]): DecisionRecord => ({
    decision: kind,
    pharmacistName: "",
    userId: "",
    decidedAt: "",
    errorType: null,
    description: null,
    drugSchedule: null,
    scheduleBasis: null,
    oneTimeTransferConfirmed: null,
    allergyWarnings: [],
    legalExpiry: null,
    pharmacistLicense: null,
    note: null,
    localRxNumber: null,
    response: {} as TransferResponse,
  });
  const keysOf = (sections: RecordSection[]) => sections.flatMap((s) => s.elements.map((e) => e.key));
  const lists = (["APPROVED", "REJECTED"] as const).map((kind) =>
    keysOf(buildTransferRecord({ referenceID: "", request, decision: decision(kind), store: null })),
  );
  const columns: string[] = [];
  for (const list of lists) {
    let at = 0;
    for (const key of list) {
      const i = columns.indexOf(key);
      if (i >= 0) at = i + 1;
      else columns.splice(at++, 0, key);
    }
  }
  return columns;
}

export const TRANSFER_EXPORT_COLUMNS: readonly string[] = recordColumns();

type ExportRow = RowOf<ReturnType<typeof selectExportBatch>>;

/** The filters up to `upTo` (the export and the on-screen log share them: queries/decided-log.ts). */
export function decidedFilter(query: TransferExportQuery, upTo: Date): DecidedFilter {
  return { fromDate: query.fromDate, upTo, outcome: query.outcome, schedule: query.schedule };
}

/** One CSV line: the record's elements in column order. */
export function recordLine(sections: RecordSection[]): string {
  const values = new Map<string, string | null>();
  for (const section of sections) for (const e of section.elements) values.set(e.key, e.value);
  return csvRow(TRANSFER_EXPORT_COLUMNS.map((key) => values.get(key) ?? null));
}

function lineOf(row: ExportRow): string {
  const parsed = TransferRequestSchema.safeParse(row.request);
  if (!parsed.success) {
    // Never silently drop a decided transfer from a legal export: say where the record can be read.
    const values = new Map<string, string>([
      ["referenceID", row.transfer_id],
      [
        "outcome",
        `${row.decision}: the stored request no longer matches the wire schema; read it at /transfers/${row.transfer_id}`,
      ],
      ["transferDateTime", row.decided_at.toISOString()],
    ]);
    return csvRow(TRANSFER_EXPORT_COLUMNS.map((key) => values.get(key) ?? null));
  }
  const decision: DecisionRecord = {
    decision: row.decision,
    pharmacistName: row.pharmacist_name,
    userId: row.user_id,
    decidedAt: row.decided_at.toISOString(),
    errorType: row.error_type,
    description: row.description,
    drugSchedule: row.drug_schedule,
    scheduleBasis: row.schedule_basis,
    oneTimeTransferConfirmed: row.one_time_transfer_confirmed,
    allergyWarnings: (row.allergy_warnings as AllergyWarning[] | null) ?? [],
    legalExpiry: row.legal_expiry?.toISOString().slice(0, 10) ?? null,
    pharmacistLicense: row.pharmacist_license,
    note: row.note,
    localRxNumber: row.local_rx_number,
    response: row.response as TransferResponse,
  };
  const store: RecordStore = row.store_npi
    ? {
        name: row.store_name ?? "",
        npi: row.store_npi,
        dea: row.store_dea,
        address: (row.store_address as Address | null) ?? null,
      }
    : null;
  return recordLine(
    buildTransferRecord({
      referenceID: row.transfer_id,
      request: parsed.data,
      decision,
      store,
      intakeSchedule: row.intake_schedule,
    }),
  );
}

export type TransferExport = { filename: string; rows: number; lines: AsyncGenerator<string> };

/**
 * The decided transfers matching the filters, oldest decision first, as CSV lines (header first). Covers the
 * decisions as they stood when it was asked for (`to` is capped at that moment), so the audited row count is
 * the number of rows written. The export is recorded in the audit log before the first line.
 */
export async function exportTransfers(query: TransferExportQuery, actor: Actor): Promise<TransferExport> {
  const startedAt = new Date();
  const upTo = query.toDate < startedAt ? query.toDate : startedAt;
  const filter = decidedFilter(query, upTo);
  const { n } = await countDecided(filter).executeTakeFirstOrThrow();
  await recordAuditEvent({
    actor,
    action: "transfers.exported",
    details: { filters: { from: query.from, to: query.to, schedule: query.schedule, outcome: query.outcome }, rows: n },
  });

  async function* lines(): AsyncGenerator<string> {
    yield csvRow(TRANSFER_EXPORT_COLUMNS);
    let after: { at: Date; id: string } | null = null;
    for (let batch = EXPORT_FIRST_BATCH; ; batch = EXPORT_BATCH) {
      const rows: ExportRow[] = await selectExportBatch(filter, after, batch).execute();
      for (const row of rows) yield lineOf(row);
      if (rows.length < batch) return;
      const last: ExportRow = rows[rows.length - 1]!;
      after = { at: last.decided_at, id: last.transfer_id };
    }
  }
  return { filename: exportFilename(query), rows: n, lines: lines() };
}
