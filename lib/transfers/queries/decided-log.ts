// The decided transfers of a period: the export's CSV (export-transfers.ts) and the log on screen
// (list-decided-transfers.ts) read them with the same filter, so the table and the CSV list the same transfers.
import { sql, type ExpressionBuilder } from "kysely";
import type { DB } from "@/generated/kysely/tables";
import { sqlDb } from "@/lib/db/kysely";
import { SCHEDULES, type Schedule } from "@/lib/drugs/schedule-names";

export type DecidedFilter = {
  fromDate: Date;
  /** Exclusive; the caller caps it at the moment it was asked. */
  upTo: Date;
  outcome: "approved" | "rejected" | "any";
  schedule: Schedule | "any" | "all";
};

type DecidedEb = ExpressionBuilder<DB & { d: DB["transfer_decisions"]; t: DB["transfers"] }, "d" | "t">;

/**
 * The schedule the filter, the sort and the column use: the decision's for an approval ("CIV" → "IV"), the
 * intake's otherwise, null for none. The rule is the SQL function transfer_log_schedule (migration
 * 20261129081000_transfer_decision_hours), which the triggers keeping transfer_decision_hours need in SQL, so
 * the rows and their hourly counts group by one definition; it answers '' for none, the counts' key, and
 * PostgreSQL inlines it, so the plans are those of the expression written out.
 */
function scheduleOf(eb: DecidedEb) {
  return eb.fn<string | null>("nullif", [
    eb.fn<string>("transfer_log_schedule", ["d.drug_schedule", "t.drug_schedule"]),
    sql.lit(""),
  ]);
}

function decisionOf(outcome: "approved" | "rejected") {
  return sql<"APPROVED" | "REJECTED">`${outcome === "approved" ? "APPROVED" : "REJECTED"}::"Decision"`;
}

function decidedWhere(f: DecidedFilter) {
  return (eb: DecidedEb) => {
    const conds = [eb("d.decided_at", ">=", f.fromDate), eb("d.decided_at", "<", f.upTo)];
    if (f.outcome !== "any") conds.push(eb("d.decision", "=", decisionOf(f.outcome)));
    if (f.schedule === "any")
      conds.push(
        eb(
          scheduleOf(eb),
          "in",
          SCHEDULES.map((s) => sql.lit(s)),
        ),
      );
    else if (f.schedule !== "all") conds.push(eb(scheduleOf(eb), "=", f.schedule));
    return eb.and(conds);
  };
}

function decided() {
  return sqlDb().selectFrom("transfer_decisions as d").innerJoin("transfers as t", "t.id", "d.transfer_id");
}

/** The decisions matching `f` counted on transfer_decisions itself: for the partial hours at a period's ends. */
function countDecidedRows(f: DecidedFilter) {
  if (f.schedule === "all") {
    // No schedule to read: the decisions' own index answers, without a transfer per row (each decision has
    // one, by its foreign key).
    const count = sqlDb()
      .selectFrom("transfer_decisions as d")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("d.decided_at", ">=", f.fromDate)
      .where("d.decided_at", "<", f.upTo);
    const { outcome } = f;
    return outcome === "any" ? count : count.where("d.decision", "=", decisionOf(outcome));
  }
  return decided()
    .select(sql<number>`count(*)::int`.as("n"))
    .where(decidedWhere(f));
}

/** The decisions matching `f` in the whole hours from `first` to `end` (exclusive), from their hourly counts. */
function countDecidedHours(f: DecidedFilter, first: Date, end: Date) {
  return sqlDb()
    .selectFrom("transfer_decision_hours as h")
    .select(sql<number>`coalesce(sum(h.count), 0)::int`.as("n"))
    .where("h.hour", ">=", first)
    .where("h.hour", "<", end)
    .$if(f.outcome !== "any", (q) => q.where("h.decision", "=", decisionOf(f.outcome as "approved" | "rejected")))
    .$if(f.schedule === "any", (q) =>
      q.where(
        "h.schedule",
        "in",
        SCHEDULES.map((s) => sql.lit(s)),
      ),
    )
    .$if(f.schedule !== "any" && f.schedule !== "all", (q) => q.where("h.schedule", "=", f.schedule));
}

const HOUR_MS = 3_600_000;

/**
 * How many decisions match `f`: the whole UTC hours of the period from transfer_decision_hours (kept in the
 * decisions' own transaction by triggers, so as exact as a count of the rows), the partial hours at its ends
 * from the rows. Any local midnight on a whole-hour offset is an hour boundary; any other edge is at most an
 * hour of rows, so the cost does not grow with the period or the table.
 */
export function countDecided(f: DecidedFilter) {
  const first = new Date(Math.ceil(f.fromDate.getTime() / HOUR_MS) * HOUR_MS);
  const end = new Date(Math.floor(f.upTo.getTime() / HOUR_MS) * HOUR_MS);
  if (first >= end) return sqlDb().selectNoFrom(sql<number>`(${countDecidedRows(f)})`.as("n"));
  const head = countDecidedRows({ ...f, upTo: first });
  const hours = countDecidedHours(f, first, end);
  const tail = countDecidedRows({ ...f, fromDate: end });
  return sqlDb().selectNoFrom(sql<number>`((${head}) + (${hours}) + (${tail}))::int`.as("n"));
}

/** One batch of the export, oldest decision first, after the keyset `after`. */
export function selectExportBatch(f: DecidedFilter, after: { at: Date; id: string } | null, limit: number) {
  return decided()
    .leftJoin("stores as s", "s.npi", "t.receiving_npi")
    .select((eb) => [
      "d.transfer_id",
      "t.request",
      "t.drug_schedule as intake_schedule",
      eb.cast<"APPROVED" | "REJECTED">("d.decision", "text").as("decision"),
      "d.user_id",
      "d.pharmacist_name",
      "d.decided_at",
      "d.error_type",
      "d.description",
      "d.drug_schedule",
      "d.schedule_basis",
      "d.one_time_transfer_confirmed",
      "d.allergy_warnings",
      "d.legal_expiry",
      "d.pharmacist_license",
      "d.note",
      "d.local_rx_number",
      "d.response",
      "s.name as store_name",
      "s.npi as store_npi",
      "s.dea as store_dea",
      "s.address as store_address",
    ])
    .where(decidedWhere(f))
    .$if(after !== null, (q) =>
      q.where((eb) => eb(eb.refTuple("d.decided_at", "d.transfer_id"), ">", eb.tuple(after!.at, after!.id))),
    )
    .orderBy("d.decided_at")
    .orderBy("d.transfer_id")
    .limit(limit);
}

export const LOG_SORTS = ["decidedAt", "patient", "drug", "schedule", "outcome", "pharmacist", "sender"] as const;
export type LogSort = (typeof LOG_SORTS)[number];

function sortKey(eb: DecidedEb, sort: LogSort) {
  switch (sort) {
    case "decidedAt":
      return eb.ref("d.decided_at");
    case "patient":
      return eb.fn<string>("lower", [
        sql`${eb.ref("t.patient_last_name")} || ' ' || ${eb.ref("t.patient_first_name")}`,
      ]);
    case "drug":
      return eb.fn<string>("lower", [sql`${eb.ref("t.drug_name")} || ' ' || ${eb.ref("t.drug_strength")}`]);
    case "schedule":
      return scheduleOf(eb);
    case "outcome":
      return eb.cast<string>("d.decision", "text");
    case "pharmacist":
      return eb.fn<string>("lower", ["d.pharmacist_name"]);
    case "sender":
      return eb.fn<string>("lower", ["t.sending_name"]);
  }
}

/** One sorted page of the log (ties broken by decision time, then id, the same way). */
export function selectDecidedPage(
  f: DecidedFilter,
  page: { sort: LogSort; dir: "asc" | "desc"; limit: number; offset: number },
) {
  // Sorted by decision time, the order is exactly the decisions' index (decided_at, transfer_id; t.id is the
  // same id), never null, so the scan reads one page of it and stops. NULLS LAST, or t.id, would not match
  // the index: PostgreSQL would sort every decision of the period first.
  return decided()
    .select((eb) => [
      "t.id",
      "d.decided_at",
      eb.cast<"APPROVED" | "REJECTED">("d.decision", "text").as("decision"),
      "t.patient_first_name",
      "t.patient_last_name",
      "t.drug_name",
      "t.drug_strength",
      scheduleOf(eb).as("schedule"),
      "d.pharmacist_name",
      "t.sending_name",
    ])
    .where(decidedWhere(f))
    .$if(page.sort !== "decidedAt", (q) =>
      q.orderBy(
        (eb) => sortKey(eb, page.sort),
        (ob) => (page.dir === "asc" ? ob.asc() : ob.desc()).nullsLast(),
      ),
    )
    .orderBy("d.decided_at", page.dir)
    .orderBy("d.transfer_id", page.dir)
    .limit(page.limit)
    .offset(page.offset);
}
