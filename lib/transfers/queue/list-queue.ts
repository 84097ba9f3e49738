// The review queue: pending transfers first, oldest first, with filters, search, sort, keyset pagination
// and counts per status. Built to stay fast over a million rows:
//   - pages are keyset ranges over (received_at, id), read in index order from
//     transfers(status, received_at, id) or transfers(received_at, id), never OFFSET;
//   - "all statuses" reads the pending phase, then the decided phase (each in index order) instead of
//     sorting the table by an expression;
//   - search uses the indexes on id, patient_dob, rx_number, drug_search and patient_search (a lower-case "last first"
//     prefix: LIKE 'abc%' reads its btree index because the column has the C collation, whatever the
//     database's default: migration 20261122155640_patient_search_collation_c); a name, drug or rxNumber
//     search reads each name and status the prefix covers in arrival order, a page of each at most, rather
//     than sorting every transfer of a common surname (queries/queue-search-page.ts);
//   - counts stop at COUNT_CAP per status and say so ("1,000+"): past a few hundred, "how many" matters less
//     to a pharmacist than a fast refresh, and a capped count still reads up to COUNT_CAP rows (a cap ten times
//     higher would be most of a page load over a million transfers: bench/HISTORY.md);
//   - the counts run alongside the page read, not after it.
// A search is recorded in the audit log with the ids it returned (never the search text: it is patient data).
// The parts: queue-query.ts (the parameters), queue-filters.ts (the search text read), queries/queue.ts (the
// SQL: conditions, pages, counts), queue-pages.ts (cursors, phases, counts), queue-items.ts (the rows as the
// screen shows them).
import { loadStoreAlertSettings } from "@/lib/alerts/find-alerting-transfers";
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { findImmediateConfirmNpis } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import { getAllStoreRules } from "@/lib/stores/store-npis";
import { groupConsecutivePatients } from "@/lib/transfers/queue/queue-patient-groups";
import { classifySearch } from "@/lib/transfers/queue/queue-filters";
import { toItem, type QueueItem } from "@/lib/transfers/queue/queue-items";
import {
  countStatus,
  decodeCursor,
  encodeCursor,
  readPhase,
  type Phase,
  type Row,
} from "@/lib/transfers/queue/queue-pages";
import { QUEUE_STATUSES, type QueueQuery, type QueueStatus } from "@/lib/transfers/queue/queue-query";

export type QueueCounts = Record<QueueStatus, { count: number; capped: boolean }>;
export type QueuePage = { items: QueueItem[]; nextCursor: string | null; counts: QueueCounts; serverTime: string };

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
  const [rules, alerts, immediateNpis] = await Promise.all([
    getAllStoreRules(),
    loadStoreAlertSettings(),
    findImmediateConfirmNpis(),
  ]);
  const groups = groupConsecutivePatients(
    page.map(({ row }) => ({
      pending: row.status === "RECEIVED",
      nameKey: row.patient_name_key,
      dob: row.patient_dob.toISOString().slice(0, 10),
      partnerId: row.partner_id,
      patientReferenceId: row.patient_reference_id,
    })),
  );
  const items = page.map(({ row }, i) => toItem(row, now, rules, groups[i] ?? null, alerts, immediateNpis));

  if (query.q || !ctx.isBackground) {
    const details = {
      status: query.status,
      sender: query.sender ?? null,
      from: query.from ?? null,
      to: query.to ?? null,
      flags: query.flags,
      schedule: query.schedule ?? null,
      page: query.cursor ? "next" : "first",
      resultCount: items.length,
      referenceIDs: items.map((i) => i.referenceID),
    };
    await recordAuditEvent({
      actor: userActor(ctx.actor, ctx.clientAddress),
      action: query.q ? "queue.searched" : "queue.viewed",
      details: query.q ? { searchKind: classifySearch(query.q).kind, ...details } : details,
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
