// graphile-worker's SQL API as the callbacks use it: the delivery jobs added, replaced and removed. Its own
// tables and functions (graphile_worker.jobs, add_job, remove_job) are not in schema.prisma (its schema is
// installed by lib/callbacks/job-queue-schema.ts): they are written here, once, as SQL fragments whose rows
// nothing reads.
import { sql, type Expression } from "kysely";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb } from "@/lib/db/kysely";

export const DELIVER_TASK = "deliver-callback";

/** graphile_worker.add_job for a callback's automatic delivery job, keyed by the callback's id. */
export function addDeliveryJob(callbackId: string, runAt: Date | null, priority: number) {
  return sql<unknown>`graphile_worker.add_job(
      ${DELIVER_TASK}::text,
      json_build_object('callbackId', ${callbackId}::text),
      run_at := coalesce(${runAt}::timestamptz, now()),
      job_key := ${callbackId}::text,
      priority := ${priority}::int
    )`;
}

/**
 * graphile_worker.add_jobs for the delivery jobs of a set of callbacks: `specs` selects one
 * deliveryJobSpec(…) per callback, ordered by callback id (the job-key locks' order). One call writes them set
 * by set and notifies the workers once, where add_job per callback cost some 0.2 ms each (most of a batch
 * claim's time); the keys work as add_job's: a waiting job is replaced, a running one keeps running and a new
 * one is queued.
 */
export function addDeliveryJobs(specs: Expression<unknown>) {
  return sql<unknown>`graphile_worker.add_jobs(ARRAY(${specs}))`;
}

/** One row of addDeliveryJobs: the callback's automatic delivery job, keyed by its id, to run at `runAt`. */
export function deliveryJobSpec(callbackId: Expression<string>, runAt: Expression<Date>, priority: Expression<number>) {
  return sql<unknown>`ROW(${DELIVER_TASK}::text, json_build_object('callbackId', ${callbackId}), NULL::text,
    ${runAt}::timestamptz, NULL::int, ${callbackId}::text, ${priority}::int, NULL::text[])::graphile_worker.job_spec`;
}

export const scheduleDeliveryStatement = compiledStatement(
  (v: { callbackId: string; runAt: Date | null; priority: number }) =>
    sqlDb().selectNoFrom(addDeliveryJob(v.callbackId, v.runAt, v.priority).as("job")),
);

export function selectRedeliveryJob(callbackId: string, jobKey: string) {
  return sqlDb().selectNoFrom(
    sql<unknown>`graphile_worker.add_job(
      ${DELIVER_TASK}::text,
      json_build_object('callbackId', ${callbackId}::text, 'manual', true),
      job_key := ${jobKey}::text
    )`.as("job"),
  );
}

/** graphile_worker.remove_job of a callback's waiting automatic job. */
export function removeDeliveryJob(callbackId: string | Expression<string>) {
  return sql<unknown>`graphile_worker.remove_job(${callbackId}::text)`;
}

/**
 * The waiting automatic jobs of a set of callbacks (`callbackIds` selects their ids) removed in one call
 * (graphile_worker.complete_jobs), where remove_job per callback cost a function call and a NOTIFY each. A
 * job a worker holds is left to run: it finds its callback settled and does nothing.
 */
export function removeDeliveryJobs(callbackIds: Expression<unknown>) {
  return sql<unknown>`graphile_worker.complete_jobs(ARRAY(
    SELECT j.id FROM graphile_worker.jobs j WHERE j.key IN (${callbackIds}) ORDER BY j.id))`;
}

export const cancelDeliveryStatement = compiledStatement((v: { callbackId: string }) =>
  sqlDb().selectNoFrom(removeDeliveryJob(v.callbackId).as("job")),
);

/** Whether the callback (column `id`) has a job no worker holds that may still run. */
export const hasRunnableJob = (id: string) =>
  sql<boolean>`EXISTS (SELECT 1 FROM graphile_worker.jobs j
                        WHERE j.key = ${sql.ref(id)} AND j.locked_at IS NULL AND j.attempts < j.max_attempts)`;

/** Every PENDING callback without a runnable job given one again, in callback-id order (job-queue.ts). */
export function queueStrandedCallbacks() {
  return sqlDb()
    .with("stranded", (db) =>
      db
        .selectFrom("callbacks as c")
        .select(["c.id", "c.next_attempt_at"])
        .where("c.status", "=", sql.lit("PENDING"))
        .where((eb) => eb.not(hasRunnableJob("c.id"))),
    )
    .with("queued", (db) =>
      db
        .selectFrom(
          addDeliveryJobs(
            db
              .selectFrom("stranded as s")
              .select(
                deliveryJobSpec(
                  sql.ref("s.id"),
                  sql<Date>`greatest(coalesce(s.next_attempt_at, now()), now())`,
                  sql.lit(0),
                ).as("spec"),
              )
              .orderBy("s.id"),
          ).as("j"),
        )
        .select(sql<number>`1`.as("job")),
    )
    .selectFrom("queued")
    .select(sql<number>`count(*)::int`.as("queued"));
}
