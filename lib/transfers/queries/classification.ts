// The statements of the stored transfers' classification (classify-transfer.ts): the batches to classify, in
// id order, and one UPDATE per batch that writes every row's columns from parallel arrays (unnest).
import { sql } from "kysely";
import { sqlDb, type RowOf } from "@/lib/db/kysely";

/**
 * The next `limit` transfers after `after` (by id) to classify: with `receivingNpi`, that store's pending
 * transfers; else those with a classification column not set.
 */
export function selectUnclassified(opts: { receivingNpi?: string; after: string; limit: number }) {
  const { receivingNpi } = opts;
  return sqlDb()
    .selectFrom("transfers")
    .select(["id", "request", "receiving_npi"])
    .$if(receivingNpi !== undefined, (q) =>
      q.where("receiving_npi", "=", receivingNpi!).where("status", "=", sql.lit("RECEIVED")),
    )
    .$if(receivingNpi === undefined, (q) =>
      q.where((eb) =>
        eb.or([eb("drug_schedule", "is", null), eb("drug_substance_key", "is", null), eb("check_flags", "is", null)]),
      ),
    )
    .where("id", ">", opts.after)
    .orderBy("id")
    .limit(opts.limit);
}

export type UnclassifiedRow = RowOf<ReturnType<typeof selectUnclassified>>;

/** A batch's classification, one array per column, index i for the row ids[i]. */
export type ClassificationColumns = {
  ids: string[];
  schedules: string[];
  alerts: (string | null)[];
  /** "" marks a drug name with no key. */
  substanceKeys: string[];
  /** One array literal per row ('{a,b}'), cast to text[] in SQL: unnest cannot take an array of arrays. */
  flags: string[];
  /** YYYY-MM-DD or null. */
  warnsFrom: (string | null)[];
};

type ClassifiedRow = {
  id: string;
  drug_schedule: string;
  allergy_alert: string | null;
  substance_key: string;
  check_flags: string;
  warns_from: string | null;
};

/**
 * Writes a batch. `reclassify` (a store's rules changed) replaces the schedule and allergy alert; otherwise a
 * row that only lacks a later column keeps the ones it was classified with.
 */
export function updateClassification(c: ClassificationColumns, reclassify: boolean) {
  const batch =
    sql<ClassifiedRow>`unnest(${c.ids}::text[], ${c.schedules}::text[], ${c.alerts}::text[], ${c.substanceKeys}::text[], ${c.flags}::text[], ${c.warnsFrom}::text[])`.as<"c">(
      sql`c(id, drug_schedule, allergy_alert, substance_key, check_flags, warns_from)`,
    );
  return sqlDb()
    .updateTable("transfers as t")
    .from(batch)
    .set((eb) => ({
      drug_schedule: reclassify
        ? eb.ref("c.drug_schedule")
        : eb
            .case()
            .when("t.drug_schedule", "is", null)
            .then(eb.ref("c.drug_schedule"))
            .else(eb.ref("t.drug_schedule"))
            .end(),
      allergy_alert: reclassify
        ? eb.ref("c.allergy_alert")
        : eb
            .case()
            .when("t.drug_schedule", "is", null)
            .then(eb.ref("c.allergy_alert"))
            .else(eb.ref("t.allergy_alert"))
            .end(),
      drug_substance_key: eb.ref("c.substance_key"),
      check_flags: sql<string[]>`${eb.ref("c.check_flags")}::text[]`,
      warns_from: sql<Date>`${eb.ref("c.warns_from")}::date`,
    }))
    .whereRef("t.id", "=", "c.id");
}
