// The statements of a confirmation's verification (typed: lib/db/kysely.ts): the "to verify" list and its count,
// and the overdue scan's candidates, claim and e-mail job (claim-overdue-verifications.ts). None is hot: each
// is built per call. The claim and the job run inside the scan's Prisma transaction (inPrismaTx), beside its
// audit record.
import { sql } from "kysely";
import { sqlDb } from "@/lib/db/kysely";

/** The confirmations not yet verified, oldest first, with their store's limit (the default where none is set). */
export function selectToVerify(limit: number, defaultHours: number) {
  return sqlDb()
    .selectFrom("immediate_confirmations as c")
    .innerJoin("transfers as t", "t.id", "c.transfer_id")
    .leftJoin("immediate_confirm_policies as p", "p.store_id", "c.store_id")
    .leftJoin("stores as s", "s.id", "c.store_id")
    .select((eb) => [
      "c.transfer_id",
      sql<string>`${eb.ref("t.patient_last_name")} || ', ' || ${eb.ref("t.patient_first_name")}`.as("patient"),
      sql<string>`${eb.ref("t.drug_name")} || ' ' || ${eb.ref("t.drug_strength")}`.as("drug"),
      "t.request",
      "c.confirmed_at",
      "c.policy_version",
      "c.owner_name",
      "c.concern_note",
      eb.fn.coalesce("p.verify_within_hours", eb.val(defaultHours)).as("hours"),
      "s.opening_hours",
      "s.time_zone",
    ])
    .where("c.verified_at", "is", null)
    .orderBy("c.confirmed_at")
    .orderBy("c.transfer_id")
    .limit(limit);
}

export function countUnverified() {
  return sqlDb()
    .selectFrom("immediate_confirmations")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("verified_at", "is", null);
}

/**
 * Not verified, not alerted, and past the store's limit by the wall clock, oldest first: opening time never
 * runs faster than the wall clock, so these bound the ones past it in opening time.
 */
export function selectOverdueCandidates(now: Date, limit: number) {
  return sqlDb()
    .selectFrom("immediate_confirmations as c")
    .innerJoin("immediate_confirm_policies as p", "p.store_id", "c.store_id")
    .innerJoin("stores as s", "s.id", "c.store_id")
    .select([
      "c.transfer_id",
      "c.store_id",
      "p.verify_within_hours as hours",
      "c.confirmed_at",
      "s.opening_hours",
      "s.time_zone",
    ])
    .where("c.verified_at", "is", null)
    .where("c.alerted_at", "is", null)
    .where((eb) =>
      eb(
        "c.confirmed_at",
        "<",
        sql<Date>`${now}::timestamptz - make_interval(hours => ${eb.ref("p.verify_within_hours")})`,
      ),
    )
    .orderBy("c.confirmed_at")
    .limit(limit);
}

/** alerted_at claimed on those still unverified and unalerted: concurrent scans raise each alert once. */
export function markOverdueAlerted(transferIds: string[], now: Date) {
  return sqlDb()
    .updateTable("immediate_confirmations")
    .set({ alerted_at: now })
    .where((eb) => eb("transfer_id", "=", eb.fn.any(sql<string[]>`${transferIds}::text[]`)))
    .where("alerted_at", "is", null)
    .where("verified_at", "is", null)
    .returning("transfer_id");
}

/** The job that sends the overdue e-mail (graphile_worker.add_job, keyed so that it is queued once a transfer). */
export function queueVerifyOverdueEmail(task: string, transferId: string) {
  return sqlDb().selectNoFrom(
    sql<unknown>`graphile_worker.add_job(
      ${task}::text,
      json_build_object('transferId', ${transferId}::text),
      job_key := ${`verify-overdue:${transferId}`}::text,
      max_attempts := 20
    )`.as("job"),
  );
}
