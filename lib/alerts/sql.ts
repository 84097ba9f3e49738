// The overdue-transfer alerts' statements (typed: lib/db/kysely.ts).
import { sql } from "kysely";
import { sqlDb } from "@/lib/db/kysely";

export type AlertClaim = { transferId: string; thresholdMinutes: number; dueAt: Date; status: string };

/** The alerts not yet claimed, in one statement; answers the ones this call claimed. */
export function insertAlertClaims(rows: AlertClaim[]) {
  return sqlDb()
    .insertInto("transfer_alerts")
    .columns(["transfer_id", "threshold_minutes", "due_at", "email_status"])
    .expression(
      sql`SELECT * FROM unnest(
        ${rows.map((r) => r.transferId)}::text[],
        ${rows.map((r) => r.thresholdMinutes)}::int[],
        ${rows.map((r) => r.dueAt)}::timestamptz[],
        ${rows.map((r) => r.status)}::text[])`,
    )
    .onConflict((oc) => oc.doNothing())
    .returning(["transfer_id", "threshold_minutes", "email_status"]);
}

/** The job that sends one alert's e-mail (graphile_worker.add_job, keyed so that it is queued once). */
export function queueAlertEmail(task: string, transferId: string, thresholdMinutes: number, jobKey: string) {
  return sqlDb().selectNoFrom(
    sql<unknown>`graphile_worker.add_job(
      ${task}::text,
      json_build_object('transferId', ${transferId}::text, 'thresholdMinutes', ${thresholdMinutes}::int),
      job_key := ${jobKey}::text,
      max_attempts := 20
    )`.as("job"),
  );
}

/** The store's alert settings, locked, so that an audit record's "from" is what a change replaced. */
export function lockStoreAlertSettings(storeId: string) {
  return sqlDb()
    .selectFrom("stores")
    .select(["npi", "alert_thresholds_minutes", "opening_hours", "time_zone"])
    .where("id", "=", storeId)
    .forUpdate();
}

/**
 * Waiting transfers received at or before `cutoff`, oldest first. withoutFinalAlertOnly: only those whose
 * store's last threshold has not been alerted yet.
 */
export function selectWaitingTransfers(opts: { cutoff: Date; limit: number; withoutFinalAlertOnly: boolean }) {
  return sqlDb()
    .selectFrom("transfers as t")
    .select(["t.id", "t.receiving_npi", "t.received_at"])
    .where("t.status", "=", sql.lit("RECEIVED" as const))
    .where("t.received_at", "<=", opts.cutoff)
    .$if(opts.withoutFinalAlertOnly, (q) =>
      q.leftJoin("stores as s", "s.npi", "t.receiving_npi").where(({ not, exists, selectFrom, ref }) =>
        not(
          exists(
            selectFrom("transfer_alerts as a")
              .select(sql`1`.as("one"))
              .whereRef("a.transfer_id", "=", "t.id")
              .where(
                "a.threshold_minutes",
                ">=",
                sql<number>`(SELECT max(x) FROM unnest(coalesce(${ref("s.alert_thresholds_minutes")}, ARRAY[120, 180])) x)`,
              ),
          ),
        ),
      ),
    )
    .orderBy("t.received_at")
    .orderBy("t.id")
    .limit(opts.limit);
}
