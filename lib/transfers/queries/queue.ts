// The review queue's SQL (list-queue.ts says which index each part reads and why): its filters as conditions
// on `transfers t`, a page of one phase read in keyset order, and the capped count per status. The shape is
// what the plans rely on: each page is one ORDER BY (received_at, id) … LIMIT over an index in that order,
// the keyset a row comparison the index can start from, and a count that stops at the cap.
//
// The statements run through the Prisma client's raw query (the same round trip and value mapping as when
// they were hand-written), so that tools reading Prisma's query events see and EXPLAIN the queue's SQL.
import { sql, type Compilable, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DB } from "@/generated/kysely/tables";
import { sqlDb, type RowOf } from "@/lib/db/kysely";
import { db } from "@/lib/db/prisma";
import { SCHEDULES } from "@/lib/drugs/schedule-names";
import { addDays } from "@/lib/interface";
import { TransferStatus } from "@/generated/prisma/enums";
import { classifySearch, type QueueSearch } from "@/lib/transfers/queue";
import { selectSearchPageIds } from "./queue-search-page";
import type { QueueQuery, QueueStatus } from "@/lib/transfers/queue";

export type QueueEb = ExpressionBuilder<DB & { t: DB["transfers"] }, "t">;
export type Condition = Expression<SqlBool>;

const CONTROLLED = SCHEDULES.map((s) => sql.lit(s));

/** The search box's text, read by classifySearch, as a condition on its indexed columns. */
export function searchCondition(eb: QueueEb, search: QueueSearch): Condition {
  switch (search.kind) {
    case "referenceID":
      return eb("t.id", "=", search.id);
    case "dateOfBirth":
      return eb("t.patient_dob", "=", sql<Date>`${search.dob}::date`);
    case "nameOrRxNumber":
      return eb.or([
        eb("t.rx_number", "=", search.rxNumber),
        eb("t.patient_search", "like", search.namePrefix),
        eb("t.patient_search", "like", search.reversedNamePrefix),
        eb("t.drug_search", "like", search.namePrefix),
      ]);
  }
}

/**
 * The review checks flag the transfer (classify-transfer.ts): one warns or fails whatever the day, or the
 * day the expiry check starts warning has come on the store's calendar. A row not yet classified is shown.
 * A store's day is within one day of UTC's, so only rows near that edge look the store's time zone up.
 */
function warningsCondition(eb: QueueEb, now: Date): Condition {
  const utcDay = now.toISOString().slice(0, 10);
  const storeZone = eb.fn.coalesce(
    eb.selectFrom("stores as s").select("s.time_zone").whereRef("s.npi", "=", "t.receiving_npi"),
    sql.lit("UTC"),
  );
  const storeDay = sql<Date>`(${now}::timestamptz AT TIME ZONE ${storeZone})::date`;
  return eb.or([
    eb("t.check_flags", "is", null),
    eb("t.check_flags", "<>", sql<string[]>`'{}'`),
    eb("t.warns_from", "<", sql<Date>`${utcDay}::date`),
    eb.and([eb("t.warns_from", "<=", sql<Date>`${addDays(utcDay, 1)}::date`), eb("t.warns_from", "<=", storeDay)]),
  ]);
}

/** The query's filters (sender, dates, flags, schedule, search) as conditions, ANDed by the caller. */
export function filterConditions(eb: QueueEb, query: QueueQuery, now: Date): Condition[] {
  const conds = otherFilterConditions(eb, query, now);
  if (query.q) conds.push(searchCondition(eb, classifySearch(query.q)));
  return conds;
}

/** The filters but the search box's text. */
function otherFilterConditions(eb: QueueEb, query: QueueQuery, now: Date): Condition[] {
  const conds: Condition[] = [];
  if (query.sender) conds.push(eb("t.partner_id", "=", query.sender));
  if (query.from) conds.push(eb("t.received_at", ">=", new Date(query.from)));
  if (query.to) conds.push(eb("t.received_at", "<", new Date(query.to)));
  for (const flag of query.flags) {
    if (flag === "allergies") conds.push(eb.ref("t.has_allergies"));
    if (flag === "allergies-unknown")
      conds.push(
        eb(
          sql<string>`${eb.ref("t.request")}->'patient'->'allergyDetails'->>'allergiesDescriptor'`,
          "=",
          sql.lit("NOT_AVAILABLE"),
        ),
      );
    if (flag === "controlled") conds.push(eb("t.drug_schedule", "in", CONTROLLED));
    if (flag === "warnings") conds.push(warningsCondition(eb, now));
  }
  if (query.schedule === "any") conds.push(eb("t.drug_schedule", "in", CONTROLLED));
  else if (query.schedule) conds.push(eb("t.drug_schedule", "=", query.schedule));
  return conds;
}

/** 0: pending (RECEIVED), 1: decided. "All statuses" reads phase 0 then phase 1. */
export type Phase = 0 | 1;

function statusCondition(eb: QueueEb, status: QueueQuery["status"], phase: Phase): Condition {
  if (status !== "all") return eb("t.status", "=", sql<QueueStatus>`${status}::"TransferStatus"`);
  return eb("t.status", phase === 0 ? "=" : "<>", sql.lit("RECEIVED"));
}

/** The statuses statusCondition admits, one by one. */
function phaseStatuses(status: QueueQuery["status"], phase: Phase): QueueStatus[] {
  if (status !== "all") return [status];
  return Object.values(TransferStatus).filter((s) => (phase === 0) === (s === "RECEIVED"));
}

export type PageOptions = {
  query: QueueQuery;
  phase: Phase;
  /** The keyset: the last row of the page before, in this phase. */
  after: { receivedAt: Date; id: string } | null;
  limit: number;
  now: Date;
};

/** One page of one phase, in index order; a claim shows only while it is live. */
export function selectQueuePage({ query, phase, after, limit, now }: PageOptions) {
  const newest = query.sort === "newest";
  const dir = newest ? "desc" : "asc";
  const dbNow = sql<Date>`now()`;
  return sqlDb()
    .selectFrom("transfers as t")
    .innerJoin("partners as p", "p.id", "t.partner_id")
    .leftJoin("users as u", "u.id", "t.claimed_by_id")
    .leftJoin("transfer_decisions as d", "d.transfer_id", "t.id")
    .select((eb) => [
      "t.id",
      eb.cast<QueueStatus>("t.status", "text").as("status"),
      "t.patient_first_name",
      "t.patient_last_name",
      "t.patient_dob",
      "t.drug_name",
      "t.drug_strength",
      "t.partner_id",
      "p.name as partner_name",
      "t.sending_npi",
      "t.received_at",
      "t.decided_at",
      "t.receiving_npi",
      eb.case().when("t.claim_expires_at", ">", dbNow).then(eb.ref("t.claimed_by_id")).end().as("claimed_by_id"),
      eb.case().when("t.claim_expires_at", ">", dbNow).then(eb.ref("u.name")).end().as("claimed_by_name"),
      eb.case().when("t.claim_expires_at", ">", dbNow).then(eb.ref("t.claim_expires_at")).end().as("claim_expires_at"),
      "d.pharmacist_name as decided_by",
      eb.cast<string | null>("t.callback_status", "text").as("callback_status"),
      "t.patient_name_key",
      "t.patient_reference_id",
      /** Why the store's immediate-confirmation policy did not confirm it at intake (lib/immediate-confirm). */
      "t.immediate_miss",
      "t.request",
    ])
    .where((eb) => {
      const keyset = (e: QueueEb) =>
        after ? [e(e.refTuple("t.received_at", "t.id"), newest ? "<" : ">", e.tuple(after.receivedAt, after.id))] : [];
      const others = (e: QueueEb) => [...otherFilterConditions(e, query, now), ...keyset(e)];
      const conds = [statusCondition(eb, query.status, phase), ...others(eb)];
      const search = query.q ? classifySearch(query.q) : null;
      if (search?.kind === "nameOrRxNumber") {
        // The ids alone, not the search's OR beside them: every id already meets a rule, and the OR would
        // tempt the planner to read all of its matches and join them to the ids.
        const statuses = phaseStatuses(query.status, phase);
        const ids = selectSearchPageIds({ search, statuses, conditions: others, limit, direction: dir });
        conds.push(eb("t.id", "in", ids));
      } else if (search) conds.push(searchCondition(eb, search));
      return eb.and(conds);
    })
    .orderBy("t.received_at", dir)
    .orderBy("t.id", dir)
    .limit(limit);
}

export type QueueRow = RowOf<ReturnType<typeof selectQueuePage>>;

/** How many transfers of `status` match, reading at most `cap + 1` of them. */
export function countQueueStatus(query: QueueQuery, status: QueueStatus, now: Date, cap: number) {
  const capped = sqlDb()
    .selectFrom("transfers as t")
    .select(sql.lit(1).as("one"))
    .where((eb) => eb.and([statusCondition(eb, status, 0), ...filterConditions(eb, query, now)]))
    .limit(cap + 1);
  return sqlDb()
    .selectFrom(capped.as("capped"))
    .select(sql<number>`count(*)::int`.as("n"));
}

/** Runs a built statement on the Prisma client (the one pool), answering its typed rows. */
export async function runQueueStatement<R>(statement: Compilable<R>): Promise<R[]> {
  const { sql: text, parameters } = statement.compile();
  return db().$queryRawUnsafe<R[]>(text, ...parameters);
}
