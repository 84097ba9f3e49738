// The review queue: pending transfers first, oldest first, with filters, search, sort, keyset pagination
// and counts per status. Built to stay fast over a million rows:
//   - pages are keyset ranges over (received_at, id), read in index order from
//     transfers(status, received_at, id) or transfers(received_at, id), never OFFSET;
//   - "all statuses" reads the pending phase, then the decided phase (each in index order) instead of
//     sorting the table by an expression;
//   - search uses the indexes on id, patient_dob, rx_number, drug_search and patient_search (a lower-case "last first"
//     prefix: LIKE 'abc%' reads its btree index because the column has the C collation, whatever the
//     database's default: migration 20261122155640_patient_search_collation_c);
//   - counts stop at COUNT_CAP per status and say so ("1,000+"): past a few hundred, "how many" matters less
//     to a pharmacist than a fast refresh, and a capped count still reads up to COUNT_CAP rows (at 10,000 it
//     was most of a page load over a million transfers: bench/README.md);
//   - the counts run alongside the page read, not after it.
// A search is recorded in the audit log with the ids it returned (never the search text: it is patient data).
import { DEFAULT_ALERT_SETTINGS, type StoreAlertSettings } from "@/lib/alerts/alert-settings";
import { loadStoreAlertSettings } from "@/lib/alerts/find-alerting-transfers";
import { arrivedAfterHours } from "@/lib/alerts/opening-hours";
import * as z from "zod";
import { Prisma } from "@/generated/prisma/client";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { getAllStoreRules } from "@/lib/stores/store-npis";
import { DEFAULT_STORE_RULES, type StoreRules } from "@/lib/stores/store-rules";
import { reviewDrug, scheduleLabel } from "@/lib/transfers/drug-review";
import { groupConsecutivePatients, type PatientGroup } from "@/lib/transfers/queue-patient-groups";
import { countProblems, reviewChecks } from "@/lib/transfers/review-checks";
import { reviewCheckOptions } from "@/lib/transfers/review-check-options";
import { warningPredicateSql } from "@/lib/transfers/review-checks-sql";
import type { TransferRequest } from "@/lib/transfers/wire";

export const QUEUE_STATUSES = ["RECEIVED", "CONFIRMED", "REJECTED"] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];
export const QUEUE_FLAGS = ["allergies", "allergies-unknown", "controlled", "warnings"] as const;
export type QueueFlag = (typeof QUEUE_FLAGS)[number];
/** The schedule filter: one schedule, any controlled one, or the drugs the tables do not know. */
export const QUEUE_SCHEDULES = ["any", "II", "III", "IV", "V", "unknown"] as const;
export type QueueSchedule = (typeof QUEUE_SCHEDULES)[number];
export const COUNT_CAP = 1_000;
export const DEFAULT_PAGE_SIZE = 50;

const isoInstant = z.iso.datetime({ offset: true });

export const QueueQuerySchema = z.object({
  status: z.enum([...QUEUE_STATUSES, "all"]).default("RECEIVED"),
  sender: z.string().trim().max(64).optional(),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  flags: z.array(z.enum(QUEUE_FLAGS)).max(QUEUE_FLAGS.length).default([]),
  schedule: z.enum(QUEUE_SCHEDULES, { error: `schedule must be one of ${QUEUE_SCHEDULES.join(", ")}` }).optional(),
  q: z.string().trim().max(100).optional(),
  sort: z.enum(["oldest", "newest"]).default("oldest"),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(DEFAULT_PAGE_SIZE),
});
export type QueueQuery = z.infer<typeof QueueQuerySchema>;

/** From a URL's query string: flags as a comma-separated list; empty values are absent. */
export function parseQueueQuery(params: URLSearchParams): QueueQuery {
  const raw: Record<string, unknown> = {};
  for (const key of ["status", "sender", "from", "to", "schedule", "q", "sort", "cursor", "limit"]) {
    const value = params.get(key);
    if (value !== null && value.trim() !== "") raw[key] = value;
  }
  const flags = params.get("flags");
  if (flags) raw.flags = flags.split(",").filter(Boolean);
  const parsed = QueueQuerySchema.safeParse(raw);
  if (!parsed.success) {
    throw new DomainError(
      "invalid_input",
      parsed.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; "),
    );
  }
  return parsed.data;
}

export type QueueItem = {
  referenceID: string;
  status: QueueStatus;
  patient: { firstName: string; lastName: string; dateOfBirth: string };
  drug: { name: string; strength: string };
  sender: { partnerId: string; name: string; npi: string };
  receivedAt: string;
  /** Arrived while its store was closed (issue 17, quiet hours): it alerts from the store's opening. */
  arrivedAfterHours: boolean;
  decidedAt: string | null;
  /** Who decided it (the pharmacist's name on the decision), for decided rows. */
  decidedBy: string | null;
  flags: {
    allergies: string[];
    allergiesDescriptor: string | null;
    /** The drug's schedule as the review screen shows it ("C-IV", with the substance); null when not controlled. */
    schedule: { label: string; substance: string | null } | null;
    /** The drug is in neither the controlled-substance table nor the list of known non-controlled drugs. */
    scheduleUnknown: boolean;
    /** The strongest allergy cross-check warning, with its message. */
    allergyAlert: { severity: "danger" | "caution"; message: string } | null;
    warnings: number;
    failures: number;
  };
  claim: { heldBy: string; heldById: string; claimExpiresAt: string } | null;
  callbackStatus: string | null;
  /** Place in a run of consecutive pending transfers of the same patient on this page (queue-patient-groups.ts). */
  patientGroup: PatientGroup | null;
};

export type QueueCounts = Record<QueueStatus, { count: number; capped: boolean }>;
export type QueuePage = { items: QueueItem[]; nextCursor: string | null; counts: QueueCounts; serverTime: string };

/** 0: pending (RECEIVED), 1: decided. "All statuses" reads phase 0 then phase 1. */
type Phase = 0 | 1;
type Cursor = { p: Phase; t: string; i: string };

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

const CursorSchema = z.object({
  p: z.union([z.literal(0), z.literal(1)]),
  t: isoInstant,
  i: z.string().min(1).max(64),
});

function decodeCursor(value: string): Cursor {
  try {
    return CursorSchema.parse(JSON.parse(Buffer.from(value, "base64url").toString("utf8")));
  } catch {
    throw new DomainError("invalid_input", "cursor: not a cursor this queue gave out; start again from the first page");
  }
}

type Row = {
  id: string;
  status: QueueStatus;
  patient_first_name: string;
  patient_last_name: string;
  patient_dob: Date;
  drug_name: string;
  drug_strength: string;
  partner_id: string;
  partner_name: string;
  sending_npi: string;
  received_at: Date;
  decided_at: Date | null;
  receiving_npi: string;
  claimed_by_id: string | null;
  claimed_by_name: string | null;
  claim_expires_at: Date | null;
  decided_by: string | null;
  callback_status: string | null;
  patient_name_key: string;
  patient_reference_id: string | null;
  request: unknown;
};

export type SearchKind = "referenceID" | "dateOfBirth" | "nameOrRxNumber";

/** How the search box's text is read: a referenceID, a date of birth, or a name (either order) / drug name prefix / rxNumber. */
export function classifySearch(q: string): { kind: SearchKind; sql: Prisma.Sql } {
  if (/^trf_[A-Za-z0-9]{1,60}$/.test(q)) return { kind: "referenceID", sql: Prisma.sql`t.id = ${q}` };
  const dob = parseDob(q);
  if (dob) return { kind: "dateOfBirth", sql: Prisma.sql`t.patient_dob = ${dob}::date` };
  const text = q.toLowerCase().replace(/,/g, " ").replace(/\s+/g, " ").trim();
  // A name in either order: "tanaka abigail" as stored, or "abigail tanaka" with the last word moved first.
  const words = text.split(" ");
  const reversed = words.length > 1 ? [words.at(-1), ...words.slice(0, -1)].join(" ") : text;
  const prefix = likePrefix(text);
  return {
    kind: "nameOrRxNumber",
    sql: Prisma.sql`(t.rx_number = ${q} OR t.patient_search LIKE ${prefix} OR t.patient_search LIKE ${likePrefix(reversed)} OR t.drug_search LIKE ${prefix})`,
  };
}

function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** YYYY-MM-DD or MM/DD/YYYY, a real calendar date; else null. */
export function parseDob(q: string): string | null {
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(q);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(q);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

function filterConditions(query: QueueQuery, now: Date): Prisma.Sql[] {
  const conds: Prisma.Sql[] = [];
  if (query.sender) conds.push(Prisma.sql`t.partner_id = ${query.sender}`);
  if (query.from) conds.push(Prisma.sql`t.received_at >= ${new Date(query.from)}`);
  if (query.to) conds.push(Prisma.sql`t.received_at < ${new Date(query.to)}`);
  for (const flag of query.flags) {
    if (flag === "allergies") conds.push(Prisma.sql`t.has_allergies`);
    if (flag === "allergies-unknown")
      conds.push(Prisma.sql`t.request->'patient'->'allergyDetails'->>'allergiesDescriptor' = 'NOT_AVAILABLE'`);
    if (flag === "controlled") conds.push(Prisma.sql`t.drug_schedule IN ('II', 'III', 'IV', 'V')`);
    if (flag === "warnings") conds.push(warningPredicateSql(now, reviewCheckOptions().earlyRefillAllowance));
  }
  if (query.schedule === "any") conds.push(Prisma.sql`t.drug_schedule IN ('II', 'III', 'IV', 'V')`);
  else if (query.schedule) conds.push(Prisma.sql`t.drug_schedule = ${query.schedule}`);
  if (query.q) conds.push(classifySearch(query.q).sql);
  return conds;
}

function statusCondition(status: QueueQuery["status"], phase: Phase): Prisma.Sql {
  if (status !== "all") return Prisma.sql`t.status = ${status}::"TransferStatus"`;
  return phase === 0
    ? Prisma.sql`t.status = 'RECEIVED'::"TransferStatus"`
    : Prisma.sql`t.status <> 'RECEIVED'::"TransferStatus"`;
}

async function readPhase(
  query: QueueQuery,
  phase: Phase,
  after: Cursor | null,
  limit: number,
  now: Date,
): Promise<Row[]> {
  const newest = query.sort === "newest";
  const conds = [statusCondition(query.status, phase), ...filterConditions(query, now)];
  if (after) {
    const t = new Date(after.t);
    conds.push(
      newest
        ? Prisma.sql`(t.received_at, t.id) < (${t}, ${after.i})`
        : Prisma.sql`(t.received_at, t.id) > (${t}, ${after.i})`,
    );
  }
  const order = newest ? Prisma.sql`t.received_at DESC, t.id DESC` : Prisma.sql`t.received_at ASC, t.id ASC`;
  return db().$queryRaw<Row[]>`
    SELECT t.id, t.status::text AS status, t.patient_first_name, t.patient_last_name, t.patient_dob,
           t.drug_name, t.drug_strength, t.partner_id, p.name AS partner_name, t.sending_npi,
           t.received_at, t.decided_at, t.receiving_npi,
           CASE WHEN t.claim_expires_at > now() THEN t.claimed_by_id END AS claimed_by_id,
           CASE WHEN t.claim_expires_at > now() THEN u.name END AS claimed_by_name,
           CASE WHEN t.claim_expires_at > now() THEN t.claim_expires_at END AS claim_expires_at,
           d.pharmacist_name AS decided_by,
           t.callback_status::text AS callback_status, t.patient_name_key, t.patient_reference_id, t.request
      FROM transfers t
      JOIN partners p ON p.id = t.partner_id
      LEFT JOIN users u ON u.id = t.claimed_by_id
      LEFT JOIN transfer_decisions d ON d.transfer_id = t.id
     WHERE ${Prisma.join(conds, " AND ")}
     ORDER BY ${order}
     LIMIT ${limit}`;
}

async function countStatus(
  query: QueueQuery,
  status: QueueStatus,
  now: Date,
): Promise<{ count: number; capped: boolean }> {
  const conds = [Prisma.sql`t.status = ${status}::"TransferStatus"`, ...filterConditions(query, now)];
  const rows = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM transfers t WHERE ${Prisma.join(conds, " AND ")} LIMIT ${COUNT_CAP + 1}) capped`;
  const n = rows[0]?.n ?? 0;
  return { count: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}

/**
 * The stored request's allergies and check counts. It was validated against the wire schema when it was
 * received and is never rewritten, so it is read as it is rather than parsed again (re-parsing 50 requests
 * was a visible part of every refresh); a row that is somehow not a request counts as one failure.
 */
function requestFlags(
  request: unknown,
  now: Date,
  rules: StoreRules,
): Omit<QueueItem["flags"], "allergies" | "allergiesDescriptor"> & {
  allergyDetails: TransferRequest["patient"]["allergyDetails"] | null;
} {
  try {
    const stored = request as TransferRequest;
    const drug = reviewDrug(stored, rules, now);
    const strongest = drug.allergyWarnings.find((w) => w.severity === "danger") ?? drug.allergyWarnings[0];
    return {
      allergyDetails: stored.patient.allergyDetails,
      schedule: drug.schedule ? { label: scheduleLabel(drug.schedule), substance: drug.match.substance } : null,
      scheduleUnknown: drug.match.status === "unknown",
      allergyAlert: strongest ? { severity: strongest.severity, message: strongest.message } : null,
      ...countProblems(reviewChecks(stored, now, drug, reviewCheckOptions())),
    };
  } catch {
    return {
      allergyDetails: null,
      schedule: null,
      scheduleUnknown: false,
      allergyAlert: null,
      warnings: 0,
      failures: 1,
    };
  }
}

function toItem(
  row: Row,
  now: Date,
  rules: ReadonlyMap<string, StoreRules>,
  patientGroup: PatientGroup | null,
  alerts: ReadonlyMap<string, StoreAlertSettings>,
): QueueItem {
  const alertSettings = alerts.get(row.receiving_npi) ?? DEFAULT_ALERT_SETTINGS;
  const { allergyDetails, ...drugFlags } = requestFlags(
    row.request,
    now,
    rules.get(row.receiving_npi) ?? DEFAULT_STORE_RULES,
  );
  return {
    referenceID: row.id,
    status: row.status,
    patient: {
      firstName: row.patient_first_name,
      lastName: row.patient_last_name,
      dateOfBirth: row.patient_dob.toISOString().slice(0, 10),
    },
    drug: { name: row.drug_name, strength: row.drug_strength },
    sender: { partnerId: row.partner_id, name: row.partner_name, npi: row.sending_npi },
    receivedAt: row.received_at.toISOString(),
    arrivedAfterHours: arrivedAfterHours(row.received_at, alertSettings.openingHours, alertSettings.timeZone),
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by,
    flags: {
      allergies: allergyDetails?.allergies ?? [],
      allergiesDescriptor: allergyDetails?.allergiesDescriptor ?? null,
      ...drugFlags,
    },
    claim:
      row.claimed_by_id && row.claim_expires_at
        ? {
            heldBy: row.claimed_by_name ?? "another pharmacist",
            heldById: row.claimed_by_id,
            claimExpiresAt: row.claim_expires_at.toISOString(),
          }
        : null,
    callbackStatus: row.callback_status,
    patientGroup,
  };
}

/**
 * `isBackground`: the screen's own 5-second refresh (BACKGROUND_HEADER). An unfiltered page lists names and
 * dates of birth, so showing one is audited (`queue.viewed`) like a search, but only when the person
 * asked for it (opening the queue, a tab, a filter, the next page): the refresh re-reads the page already
 * recorded, every 5 seconds all day, which would bury the log without telling an auditor anything new.
 * A search is never refreshed in the background (the screen stops refreshing while one is shown).
 */
export async function listQueue(
  query: QueueQuery,
  ctx: { actor: SessionUser; clientAddress: string | null; isBackground?: boolean },
): Promise<QueuePage> {
  const now = new Date();
  const phases: Phase[] = query.status === "all" ? [0, 1] : [query.status === "RECEIVED" ? 0 : 1];
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  const startPhase = cursor?.p ?? phases[0]!;

  const counts = Promise.all(QUEUE_STATUSES.map((s) => countStatus(query, s, now)));
  // Settled here too, so a failing page read does not leave the counts' rejection unhandled.
  counts.catch(() => {});
  const collected: { row: Row; phase: Phase }[] = [];
  for (const phase of phases) {
    if (phase < startPhase) continue;
    const want = query.limit + 1 - collected.length;
    if (want <= 0) break;
    const rows = await readPhase(query, phase, cursor && cursor.p === phase ? cursor : null, want, now);
    collected.push(...rows.map((row) => ({ row, phase })));
  }
  const hasMore = collected.length > query.limit;
  const page = collected.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor =
    hasMore && last ? encodeCursor({ p: last.phase, t: last.row.received_at.toISOString(), i: last.row.id }) : null;

  const [RECEIVED, CONFIRMED, REJECTED] = await counts;
  const [rules, alerts] = await Promise.all([getAllStoreRules(), loadStoreAlertSettings()]);
  const groups = groupConsecutivePatients(
    page.map(({ row }) => ({
      pending: row.status === "RECEIVED",
      nameKey: row.patient_name_key,
      dob: row.patient_dob.toISOString().slice(0, 10),
      partnerId: row.partner_id,
      patientReferenceId: row.patient_reference_id,
    })),
  );
  const items = page.map(({ row }, i) => toItem(row, now, rules, groups[i] ?? null, alerts));

  if (query.q) {
    await recordAuditEvent({
      userId: ctx.actor.id,
      actor: ctx.actor.email,
      action: "queue.searched",
      clientAddress: ctx.clientAddress,
      details: {
        searchKind: classifySearch(query.q).kind,
        status: query.status,
        sender: query.sender ?? null,
        from: query.from ?? null,
        to: query.to ?? null,
        flags: query.flags,
        schedule: query.schedule ?? null,
        page: query.cursor ? "next" : "first",
        resultCount: items.length,
        referenceIDs: items.map((i) => i.referenceID),
      },
    });
  } else if (!ctx.isBackground) {
    await recordAuditEvent({
      userId: ctx.actor.id,
      actor: ctx.actor.email,
      action: "queue.viewed",
      clientAddress: ctx.clientAddress,
      details: {
        status: query.status,
        sender: query.sender ?? null,
        from: query.from ?? null,
        to: query.to ?? null,
        flags: query.flags,
        schedule: query.schedule ?? null,
        page: query.cursor ? "next" : "first",
        resultCount: items.length,
        referenceIDs: items.map((i) => i.referenceID),
      },
    });
  }
  return {
    items,
    nextCursor,
    counts: { RECEIVED: RECEIVED!, CONFIRMED: CONFIRMED!, REJECTED: REJECTED! },
    serverTime: now.toISOString(),
  };
}

/** The senders a queue can be filtered by (partners: a short list). */
export async function listSenders(): Promise<{ partnerId: string; name: string }[]> {
  const partners = await db().partner.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
  return partners.map((p) => ({ partnerId: p.id, name: p.name }));
}
