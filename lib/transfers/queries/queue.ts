// The review queue's SQL (list-queue.ts says which index each part reads and why): its filters as conditions
// on `transfers t`, a page of one phase read in keyset order, and the capped count per status. The shape is
// what the plans rely on: each page is one ORDER BY (received_at, id) … LIMIT over an index in that order,
// the keyset a row comparison the index can start from, and a count that stops at the cap.
//
// A page's statement is built and compiled once per shape (which filters, which search, which phase and
// direction, a keyset or not), its values put in place on each read (lib/db/compiled-statement.ts): a name
// search's statement is a union of a dozen reads, each with the page's conditions, about a millisecond of
// Node to build and compile every time. The builders below therefore branch only on the shape and use the
// values only as values.
//
// The statements run through the Prisma client's raw query (the same round trip and value mapping as when
// they were hand-written), so that tools reading Prisma's query events see and EXPLAIN the queue's SQL.
import { sql, type Compilable, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DB } from "@/generated/kysely/tables";
import { compiledStatement, type CompiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb, type RowOf } from "@/lib/db/kysely";
import { db } from "@/lib/db/prisma";
import { SCHEDULES } from "@/lib/drugs/schedule-names";
import { addDays } from "@/lib/interface";
import { TransferStatus } from "@/generated/prisma/enums";
import { classifySearch, type QueueSearch } from "@/lib/transfers/queue";
import { selectSearchPageIds } from "./queue-search-page";
import { QUEUE_FLAGS, type QueueFlag, type QueueQuery, type QueueStatus } from "@/lib/transfers/queue";

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
 * day the expiry check starts warning has come on the store's calendar; a row not yet classified is shown.
 * transfer_warnings_from (migration 20261207230000_transfer_warnings_index) is that first day, and the index on
 * it reads only the rows the filter can match. A store's day is within one day of UTC's, so only rows near
 * that edge look the store's time zone up.
 */
function warningsCondition(eb: QueueEb, v: FilterValues): Condition {
  const storeZone = eb.fn.coalesce(
    eb.selectFrom("stores as s").select("s.time_zone").whereRef("s.npi", "=", "t.receiving_npi"),
    sql.lit("UTC"),
  );
  const storeDay = sql<Date>`(${v.now}::timestamptz AT TIME ZONE ${storeZone})::date`;
  const from = sql<Date>`transfer_warnings_from(${eb.ref("t.check_flags")}, ${eb.ref("t.warns_from")})`;
  return eb.and([
    eb(from, "<=", sql<Date>`${v.nextUtcDay}::date`),
    eb.or([eb(from, "<", sql<Date>`${v.utcDay}::date`), eb(from, "<=", storeDay)]),
  ]);
}

/** What of a query decides its filters' text: which are given (their values are parameters: FilterValues). */
type FilterShape = {
  sender: boolean;
  from: boolean;
  to: boolean;
  /** Each flag once, in QUEUE_FLAGS' order. */
  flags: readonly QueueFlag[];
  schedule: "any" | "one" | null;
};

/** The filters' values (an absent filter's is never read); placeholders while a page's shape is compiled. */
type FilterValues = {
  sender: string;
  from: Date;
  to: Date;
  schedule: string;
  now: Date;
  /** now's UTC day and the next, YYYY-MM-DD. */
  utcDay: string;
  nextUtcDay: string;
};

function filterShapeOf(query: QueueQuery): FilterShape {
  return {
    sender: Boolean(query.sender),
    from: Boolean(query.from),
    to: Boolean(query.to),
    flags: QUEUE_FLAGS.filter((f) => query.flags.includes(f)),
    schedule: query.schedule === "any" ? "any" : query.schedule ? "one" : null,
  };
}

function filterValuesOf(query: QueueQuery, now: Date): FilterValues {
  const utcDay = now.toISOString().slice(0, 10);
  return {
    sender: query.sender ?? "",
    from: new Date(query.from ?? 0),
    to: new Date(query.to ?? 0),
    schedule: query.schedule ?? "",
    now,
    utcDay,
    nextUtcDay: addDays(utcDay, 1),
  };
}

/** The query's filters (sender, dates, flags, schedule, search) as conditions, ANDed by the caller. */
export function filterConditions(eb: QueueEb, query: QueueQuery, now: Date): Condition[] {
  const conds = otherFilterConditions(eb, filterShapeOf(query), filterValuesOf(query, now));
  if (query.q) conds.push(searchCondition(eb, classifySearch(query.q)));
  return conds;
}

/** The filters but the search box's text. */
function otherFilterConditions(eb: QueueEb, shape: FilterShape, v: FilterValues): Condition[] {
  const conds: Condition[] = [];
  if (shape.sender) conds.push(eb("t.partner_id", "=", v.sender));
  if (shape.from) conds.push(eb("t.received_at", ">=", v.from));
  if (shape.to) conds.push(eb("t.received_at", "<", v.to));
  for (const flag of shape.flags) {
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
    if (flag === "warnings") conds.push(warningsCondition(eb, v));
  }
  if (shape.schedule === "any") conds.push(eb("t.drug_schedule", "in", CONTROLLED));
  else if (shape.schedule === "one") conds.push(eb("t.drug_schedule", "=", v.schedule));
  return conds;
}

/** 0: pending (RECEIVED), 1: decided. "All statuses" reads phase 0 then phase 1. */
export type Phase = 0 | 1;

/** One status, or (null) "all statuses": the phase's. */
function statusCondition(eb: QueueEb, status: QueueStatus | null, phase: Phase): Condition {
  if (status !== null) return eb("t.status", "=", sql<QueueStatus>`${status}::"TransferStatus"`);
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

/** What decides a page statement's text; everything else is a value (PageValues). */
type PageShape = FilterShape & {
  /** "All statuses": the phase's condition; else the one status given. */
  allStatuses: boolean;
  phase: Phase;
  /** The statuses the phase admits, read one by one by a name search. */
  statusCount: number;
  newest: boolean;
  after: boolean;
  search: QueueSearch["kind"] | null;
  /** A name search whose words, last moved first, are another prefix. */
  reversedName: boolean;
};

type PageValues = FilterValues & {
  status: QueueStatus;
  statuses: QueueStatus[];
  afterReceivedAt: Date;
  afterId: string;
  limit: number;
  searchId: string;
  dob: string;
  rxNumber: string;
  namePrefix: string;
  reversedNamePrefix: string;
};

function pageOf({ query, phase, after, limit, now }: PageOptions): { shape: PageShape; values: PageValues } {
  const search = query.q ? classifySearch(query.q) : null;
  const statuses = phaseStatuses(query.status, phase);
  const shape: PageShape = {
    ...filterShapeOf(query),
    allStatuses: query.status === "all",
    phase,
    statusCount: statuses.length,
    newest: query.sort === "newest",
    after: after !== null,
    search: search?.kind ?? null,
    reversedName: search?.kind === "nameOrRxNumber" && search.reversedNamePrefix !== search.namePrefix,
  };
  const values: PageValues = {
    ...filterValuesOf(query, now),
    status: statuses[0]!,
    statuses,
    afterReceivedAt: after?.receivedAt ?? new Date(0),
    afterId: after?.id ?? "",
    limit,
    searchId: search?.kind === "referenceID" ? search.id : "",
    dob: search?.kind === "dateOfBirth" ? search.dob : "",
    rxNumber: search?.kind === "nameOrRxNumber" ? search.rxNumber : "",
    namePrefix: search?.kind === "nameOrRxNumber" ? search.namePrefix : "",
    reversedNamePrefix: search?.kind === "nameOrRxNumber" ? search.reversedNamePrefix : "",
  };
  return { shape, values };
}

/** The search of `kind` over the values (placeholders while compiling). */
function searchOf(kind: QueueSearch["kind"], v: PageValues): QueueSearch {
  switch (kind) {
    case "referenceID":
      return { kind, id: v.searchId };
    case "dateOfBirth":
      return { kind, dob: v.dob };
    case "nameOrRxNumber":
      return { kind, rxNumber: v.rxNumber, namePrefix: v.namePrefix, reversedNamePrefix: v.reversedNamePrefix };
  }
}

/** One page of one phase, in index order; a claim shows only while it is live. */
function buildQueuePage(shape: PageShape, v: PageValues) {
  const dir = shape.newest ? "desc" : "asc";
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
      eb
        .selectFrom("callbacks as c")
        .select((e) => e.cast<string>("c.status", "text").as("s"))
        .whereRef("c.transfer_id", "=", "t.id")
        .$asScalar()
        .as("callback_status"),
      "t.patient_name_key",
      "t.patient_reference_id",
      /** Why the store's immediate-confirmation policy did not confirm it at intake (lib/immediate-confirm). */
      "t.immediate_miss",
      "t.request",
    ])
    .where((eb) => {
      const keyset = (e: QueueEb) =>
        shape.after
          ? [e(e.refTuple("t.received_at", "t.id"), shape.newest ? "<" : ">", e.tuple(v.afterReceivedAt, v.afterId))]
          : [];
      const others = (e: QueueEb) => [...otherFilterConditions(e, shape, v), ...keyset(e)];
      const conds = [statusCondition(eb, shape.allStatuses ? null : v.status, shape.phase), ...others(eb)];
      if (shape.search === "nameOrRxNumber") {
        // The ids alone, not the search's OR beside them: every id already meets a rule, and the OR would
        // tempt the planner to read all of its matches and join them to the ids.
        const ids = selectSearchPageIds({
          rxNumber: v.rxNumber,
          namePrefixes: shape.reversedName ? [v.namePrefix, v.reversedNamePrefix] : [v.namePrefix],
          statuses: Array.from({ length: shape.statusCount }, (_, i) => v.statuses[i]!),
          conditions: others,
          limit: v.limit,
          direction: dir,
        });
        conds.push(eb("t.id", "in", ids));
      } else if (shape.search) conds.push(searchCondition(eb, searchOf(shape.search, v)));
      return eb.and(conds);
    })
    .orderBy("t.received_at", dir)
    .orderBy("t.id", dir)
    .limit(v.limit);
}

export type QueueRow = RowOf<ReturnType<typeof buildQueuePage>>;

/** Shapes kept compiled; past this many (a few dozen are in use) the cache starts again. */
const MAX_PAGE_SHAPES = 500;
const pageStatements = new Map<string, CompiledStatement<PageValues, QueueRow>>();

/**
 * One page of one phase, in index order, as a statement to compile: the page's shape compiled on first use
 * (buildQueuePage), each call's values put in place.
 */
export function selectQueuePage(options: PageOptions): Compilable<QueueRow> {
  const { shape, values } = pageOf(options);
  const key = JSON.stringify(shape);
  let statement = pageStatements.get(key);
  if (!statement) {
    if (pageStatements.size >= MAX_PAGE_SHAPES) pageStatements.clear();
    statement = compiledStatement((v: PageValues) => buildQueuePage(shape, v));
    pageStatements.set(key, statement);
  }
  const compiled = statement;
  return { compile: () => compiled(values) };
}

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
