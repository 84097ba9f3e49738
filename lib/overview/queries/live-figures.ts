// The overview's figures of the moment, always read live: pending transfers by age, today's decisions by
// hour, the partners and their answers of the last hour, and the immediate confirmations waiting.
import { sql } from "kysely";
import { byFirstColumns, countRows, localHour, type Executor } from "@/lib/overview/queries/executor";
import type { AgeBand } from "@/lib/overview/overview-views";

/** Pending (RECEIVED) transfers by age band against the sender's 4-hour window (AGE_BANDS). */
export function countPendingByAge(q: Executor, now: Date) {
  return q
    .selectFrom("transfers")
    .select((eb) => {
      const newerThan = (hours: number) =>
        sql`${eb.ref("received_at")} > ${now}::timestamptz - make_interval(hours => ${hours}::int)`;
      return [
        sql<AgeBand>`CASE WHEN ${newerThan(1)} THEN '0-1h' WHEN ${newerThan(2)} THEN '1-2h'
                          WHEN ${newerThan(3)} THEN '2-3h' WHEN ${newerThan(4)} THEN '3-4h' ELSE '4h+' END`.as("band"),
        countRows().as("count"),
      ];
    })
    .where("status", "=", "RECEIVED")
    .where("received_at", "<=", now)
    .groupBy(byFirstColumns(1));
}

/** Decisions from `dayStart` to `now` by local hour and outcome. */
export function countDecisionsByHour(q: Executor, tz: string, dayStart: Date, now: Date) {
  return q
    .selectFrom("transfer_decisions")
    .select((eb) => [
      localHour(tz, eb.ref("decided_at")).as("hour"),
      sql<string>`${eb.ref("decision")}::text`.as("decision"),
      countRows().as("count"),
    ])
    .where("decided_at", ">=", dayStart)
    .where("decided_at", "<=", now)
    .groupBy(byFirstColumns(2));
}

export function selectPartnerNames(q: Executor) {
  return q.selectFrom("partners").select(["id", "name"]).orderBy("name").orderBy("id");
}

/** Each partner's answers to the sender and the failures among them over the hour up to `now`. */
export function countAnswersLastHour(q: Executor, now: Date) {
  return q
    .selectFrom("partner_answer_counts")
    .select([
      "partner_id",
      sql<number>`sum(answers)::int`.as("answers"),
      sql<number>`sum(failures)::int`.as("failures"),
    ])
    .where("minute", ">", sql<Date>`${now}::timestamptz - interval '1 hour'`)
    .where("minute", "<=", now)
    .groupBy("partner_id");
}

/**
 * Immediate confirmations: whether a store's policy is on, those confirmed today, those waiting for the
 * countersign and, of those, the ones past their store's verification limit (4 h without a policy row).
 */
export function countImmediateConfirmations(q: Executor, now: Date, dayStart: Date) {
  return q
    .selectFrom("immediate_confirmations as c")
    .leftJoin("immediate_confirm_policies as p", "p.store_id", "c.store_id")
    .select((eb) => [
      eb
        .exists(eb.selectFrom("immediate_confirm_policies as e").select("e.store_id").where("e.enabled", "=", true))
        .as("enabled"),
      eb
        .selectFrom("immediate_confirmations as t")
        .select(countRows().as("n"))
        .where("t.confirmed_at", ">=", dayStart)
        .where("t.confirmed_at", "<=", now)
        .as("confirmed_today"),
      countRows().as("waiting"),
      sql<number>`(count(*) FILTER (WHERE ${eb.ref("c.confirmed_at")} < ${now}::timestamptz
                     - make_interval(hours => coalesce(${eb.ref("p.verify_within_hours")}, 4))))::int`.as("overdue"),
    ])
    .where("c.verified_at", "is", null)
    .where("c.confirmed_at", "<=", now);
}
