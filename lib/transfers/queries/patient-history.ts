// The patient history's SQL (get-patient-history.ts says what it matches and why), shaped so that its plan
// does not depend on the data's statistics.
//
// An OR of the two match rules under ORDER BY received_at DESC, id DESC LIMIT lets the planner choose between
// reading the matches and sorting them, or walking transfers_received_at_id_idx backwards until the LIMIT fills.
// When a few patients are very common (a chronic patient with hundreds of fills, a sender reusing one patient
// id) the statistics overestimate everyone's matches, the walk looks cheap, and a patient with a handful of
// transfers reads the whole table. So each rule is its own branch, answered by its own index in the order
// wanted — (patient_name_key, patient_dob, received_at, id) and (partner_id, patient_reference_id,
// received_at, id), read backwards — and cut at the limit before the UNION merges them: at most 2 × limit
// index entries, whoever the patient is and however common anyone else is. Every row of the top `limit` of the
// OR is in the top `limit` of a rule it matches, so the result is the same rows in the same order.
import { sql, type SelectQueryBuilder } from "kysely";
import type { DB } from "@/generated/kysely/tables";
import { sqlDb, type RowOf } from "@/lib/db/kysely";

/** The transfer whose history is asked for: its match keys, as the first statement reads them. */
export function selectHistoryTarget(referenceID: string) {
  return sqlDb()
    .selectFrom("transfers")
    .select((eb) => [
      "id",
      "partner_id",
      "patient_name_key",
      /** YYYY-MM-DD */
      eb.cast<string>("patient_dob", "text").as("patient_dob"),
      "patient_reference_id",
    ])
    .where("id", "=", referenceID);
}

export type HistoryTarget = {
  id: string;
  partner_id: string;
  patient_name_key: string;
  /** YYYY-MM-DD */
  patient_dob: string;
  patient_reference_id: string | null;
};

export async function findHistoryTarget(referenceID: string): Promise<HistoryTarget | null> {
  return (await selectHistoryTarget(referenceID).executeTakeFirst()) ?? null;
}

type MatchBranch = SelectQueryBuilder<DB, "transfers", { id: string }>;

/**
 * The ids of the target's other transfers by either rule, newest first, at most `limit` per rule (a
 * name that normalises to nothing, "|", matches no one; neither does a missing patient id), each branch
 * in parentheses so that its ORDER BY and LIMIT apply before the UNION. Null when neither rule can match.
 */
export function historyMatches(target: HistoryTarget, limit: number) {
  const db = sqlDb();
  const branches: MatchBranch[] = [];
  if (target.patient_name_key !== "|") {
    branches.push(
      db
        .selectFrom("transfers")
        .select("id")
        .where("patient_name_key", "=", target.patient_name_key)
        .where("patient_dob", "=", sql<Date>`${target.patient_dob}::date`)
        .where("id", "<>", target.id)
        .orderBy("received_at", "desc")
        .orderBy("id", "desc")
        .limit(limit),
    );
  }
  if (target.patient_reference_id !== null) {
    branches.push(
      db
        .selectFrom("transfers")
        .select("id")
        .where("partner_id", "=", target.partner_id)
        .where("patient_reference_id", "=", target.patient_reference_id)
        .where("id", "<>", target.id)
        .orderBy("received_at", "desc")
        .orderBy("id", "desc")
        .limit(limit),
    );
  }
  if (branches.length === 0) return null;
  // Kysely parenthesises each embedded SELECT; the CTE's own parentheses are written here.
  return sql<{ id: string }>`(${sql.join(branches, sql` UNION `)})`;
}

/**
 * The history's rows (newest first, at most `limit`): the matches joined to what the panel shows, with how
 * each matched, whether its date of birth differs, duplicate therapy, and whether it comes after the target in
 * queue order. Null when neither rule can match.
 */
export function historyRows(target: HistoryTarget, opts: { limit: number; duplicateTherapyDays: number }) {
  const matches = historyMatches(target, opts.limit);
  if (!matches) return null;
  const days = opts.duplicateTherapyDays;
  return sqlDb()
    .with("cur", (q) =>
      q
        .selectFrom("transfers")
        .select([
          "id",
          "partner_id",
          "patient_name_key",
          "patient_dob",
          "patient_reference_id",
          "drug_substance_key",
          "received_at",
        ])
        .where("id", "=", target.id),
    )
    .with("matched", () => matches)
    .selectFrom("matched as m")
    .innerJoin("transfers as h", "h.id", "m.id")
    .crossJoin("cur")
    .innerJoin("partners as p", "p.id", "h.partner_id")
    .leftJoin("transfer_decisions as d", "d.transfer_id", "h.id")
    .select((eb) => [
      "h.id",
      eb.cast<"RECEIVED" | "CONFIRMED" | "REJECTED">("h.status", "text").as("status"),
      "h.drug_name",
      "h.drug_strength",
      "h.received_at",
      "h.decided_at",
      "d.pharmacist_name as decided_by",
      "d.error_type",
      "p.name as sender",
      eb
        .and([
          eb("h.patient_name_key", "=", eb.ref("cur.patient_name_key")),
          eb("h.patient_dob", "=", eb.ref("cur.patient_dob")),
        ])
        .$castTo<boolean>()
        .as("by_name"),
      eb
        .and([
          eb("h.partner_id", "=", eb.ref("cur.partner_id")),
          eb("h.patient_reference_id", "=", eb.ref("cur.patient_reference_id")),
        ])
        .$castTo<boolean>()
        .as("by_patient_id"),
      eb("h.patient_dob", "<>", eb.ref("cur.patient_dob")).$castTo<boolean>().as("dob_differs"),
      eb
        .and([
          eb("h.status", "in", [sql.lit("RECEIVED" as const), sql.lit("CONFIRMED" as const)]),
          eb("h.drug_substance_key", "<>", sql.lit("")),
          eb("h.drug_substance_key", "=", eb.ref("cur.drug_substance_key")),
          eb.between(
            "h.received_at",
            sql<Date>`${eb.ref("cur.received_at")} - make_interval(days => ${days})`,
            sql<Date>`${eb.ref("cur.received_at")} + make_interval(days => ${days})`,
          ),
        ])
        .$castTo<boolean>()
        .as("duplicate"),
      sql<boolean>`((${eb.ref("h.received_at")}, ${eb.ref("h.id")}) > (${eb.ref("cur.received_at")}, ${eb.ref("cur.id")}))`.as(
        "after_current",
      ),
    ])
    .orderBy("h.received_at", "desc")
    .orderBy("h.id", "desc")
    .limit(opts.limit);
}

export type HistoryRow = RowOf<NonNullable<ReturnType<typeof historyRows>>>;
