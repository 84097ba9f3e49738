// The partners' statements (typed: lib/db/kysely.ts): row locks run inside the caller's Prisma transaction
// (inPrismaTx); the answer counts' batch write goes to the pool directly (partner-answer-counts.ts says why).
import { sql } from "kysely";
import { sqlDb } from "@/lib/db/kysely";

export function lockPartnerRow(partnerId: string) {
  return sqlDb().selectFrom("partners").select(["id", "name"]).where("id", "=", partnerId).forUpdate();
}

/** Every partner locked, in id order (re-sealing touches them all). */
export function lockAllPartners() {
  return sqlDb().selectFrom("partners").select("id").orderBy("id").forUpdate();
}

export function countRefusedCallbacksByPartner() {
  return sqlDb()
    .selectFrom("callbacks")
    .select(["partner_id", sql<number>`count(*)::int`.as("n")])
    .where("status", "=", sql.lit("REFUSED" as const))
    .groupBy("partner_id");
}

/** Each partner's intake in the last 24 hours and 7 days, and its last transfer. */
export function selectPartnerTraffic(partnerIds: string[]) {
  const since = (interval: string) => sql<Date>`now() - ${sql.raw(`interval '${interval}'`)}`;
  return sqlDb()
    .selectFrom("partners as p")
    .select((eb) => [
      "p.id",
      eb
        .selectFrom("transfers as t")
        .select(sql<number>`count(*)::int`.as("n"))
        .whereRef("t.partner_id", "=", "p.id")
        .where("t.received_at", ">", since("24 hours"))
        .as("last24h"),
      eb
        .selectFrom("transfers as t")
        .select(sql<number>`count(*)::int`.as("n"))
        .whereRef("t.partner_id", "=", "p.id")
        .where("t.received_at", ">", since("7 days"))
        .as("last7d"),
      eb
        .selectFrom("transfers as t")
        .select((e) => e.fn.max("t.received_at").as("m"))
        .whereRef("t.partner_id", "=", "p.id")
        .as("last_received_at"),
    ])
    .where("p.id", "=", sql<string>`ANY(${partnerIds}::text[])`);
}

/** Each partner's callbacks of the last 7 days by state. */
export function selectPartnerCallbackCounts(partnerIds: string[]) {
  return sqlDb()
    .selectFrom("callbacks as c")
    .select((eb) => {
      const count = (where: ReturnType<typeof eb.and> | ReturnType<typeof eb>) =>
        sql<number>`(count(*) FILTER (WHERE ${where}))::int`;
      const retried = eb.or([eb("c.last_status_code", "is not", null), eb("c.last_error", "is not", null)]);
      return [
        "c.partner_id",
        count(eb("c.status", "=", sql.lit("DELIVERED" as const))).as("delivered"),
        count(
          eb.and([
            eb("c.status", "=", sql.lit("PENDING" as const)),
            eb("c.last_status_code", "is", null),
            eb("c.last_error", "is", null),
          ]),
        ).as("pending"),
        count(eb.and([eb("c.status", "=", sql.lit("PENDING" as const)), retried])).as("retrying"),
        count(eb("c.status", "=", sql.lit("FAILED" as const))).as("failed"),
        count(eb("c.status", "=", sql.lit("GONE" as const))).as("gone"),
        count(eb("c.status", "=", sql.lit("REFUSED" as const))).as("refused"),
        eb.fn.max("c.delivered_at").as("last_delivered_at"),
      ];
    })
    .where("c.partner_id", "=", sql<string>`ANY(${partnerIds}::text[])`)
    .where("c.created_at", ">", sql<Date>`now() - interval '7 days'`)
    .groupBy("c.partner_id");
}

export type AnswerCountBatch = {
  partners: string[];
  minutes: Date[];
  answers: number[];
  failures: number[];
  clientErrors: number[];
};

/** Adds a batch of per-minute counts, one row per (partner, minute), in one statement. */
export function addAnswerCounts(b: AnswerCountBatch) {
  return sqlDb()
    .insertInto("partner_answer_counts")
    .columns(["partner_id", "minute", "answers", "failures", "client_errors"])
    .expression(
      sql`SELECT * FROM unnest(${b.partners}::text[], ${b.minutes}::timestamptz[], ${b.answers}::int[], ${b.failures}::int[], ${b.clientErrors}::int[])`,
    )
    .onConflict((oc) =>
      oc.columns(["partner_id", "minute"]).doUpdateSet((eb) => ({
        answers: eb("partner_answer_counts.answers", "+", eb.ref("excluded.answers")),
        failures: eb("partner_answer_counts.failures", "+", eb.ref("excluded.failures")),
        client_errors: eb("partner_answer_counts.client_errors", "+", eb.ref("excluded.client_errors")),
      })),
    );
}

export function deleteOldAnswerCounts() {
  return sqlDb()
    .deleteFrom("partner_answer_counts")
    .where("minute", "<", sql<Date>`now() - interval '2 days'`);
}

/** Each partner's answers of the last hour (all instances); every partner's when `partnerIds` is not given. */
export function selectAnswerRates(partnerIds?: string[]) {
  return sqlDb()
    .selectFrom("partner_answer_counts")
    .select((eb) => [
      "partner_id",
      sql<number>`sum(${eb.ref("answers")})::int`.as("answers"),
      sql<number>`sum(${eb.ref("failures")})::int`.as("failures"),
      sql<number>`sum(${eb.ref("client_errors")})::int`.as("client_errors"),
    ])
    .where("minute", ">", sql<Date>`now() - interval '1 hour'`)
    .$if(partnerIds !== undefined, (q) => q.where("partner_id", "=", sql<string>`ANY(${partnerIds}::text[])`))
    .groupBy("partner_id");
}
