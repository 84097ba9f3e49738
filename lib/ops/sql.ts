// The operations code's statements (typed: lib/db/kysely.ts): the database gauges, each reading an index
// (transfers by status and received_at, callbacks by status, audit events by action and time) or a small
// table, and the readiness check's migrations. Two read tables schema.prisma does not describe (graphile-
// worker's jobs, Prisma Migrate's _prisma_migrations): their rows are typed here, once.
import { sql, type Expression, type SqlBool } from "kysely";
import { sqlDb } from "@/lib/db/kysely";

const hoursAgo = (h: number) => sql<Date>`now() - ${sql.raw(`interval '${h} hour${h === 1 ? "" : "s"}'`)}`;
const countWhere = (cond: Expression<SqlBool>) => sql<number>`(count(*) FILTER (WHERE ${cond}))::int`;

/** Waiting transfers by age (hours 0-1, 1-2, 2-3, 3-4, over 4) and the oldest one's age in seconds. */
export function selectPendingByAge() {
  return sqlDb()
    .selectFrom("transfers")
    .select((eb) => [
      countWhere(eb("received_at", ">", hoursAgo(1))).as("h0"),
      countWhere(eb.and([eb("received_at", "<=", hoursAgo(1)), eb("received_at", ">", hoursAgo(2))])).as("h1"),
      countWhere(eb.and([eb("received_at", "<=", hoursAgo(2)), eb("received_at", ">", hoursAgo(3))])).as("h2"),
      countWhere(eb.and([eb("received_at", "<=", hoursAgo(3)), eb("received_at", ">", hoursAgo(4))])).as("h3"),
      countWhere(eb("received_at", "<=", hoursAgo(4))).as("h4"),
      sql<number>`coalesce(extract(epoch FROM now() - min(${eb.ref("received_at")})), 0)::float8`.as("oldest"),
    ])
    .where("status", "=", sql.lit("RECEIVED" as const));
}

export function selectCallbacksByStatus() {
  return sqlDb()
    .selectFrom("callbacks")
    .select((eb) => [eb.cast<string>("status", "text").as("status"), sql<number>`count(*)::int`.as("n")])
    .where("status", "in", [
      sql.lit("PENDING" as const),
      sql.lit("FAILED" as const),
      sql.lit("GONE" as const),
      sql.lit("REFUSED" as const),
    ])
    .groupBy("status");
}

export function selectFailingPartners() {
  return sqlDb()
    .selectFrom("partners")
    .select((eb) => [
      "id",
      sql<number>`extract(epoch FROM now() - ${eb.ref("callback_failing_since")})::float8`.as("seconds"),
    ])
    .where("callback_failing_since", "is not", null);
}

/** Sign-in failures and lockouts in the last 15 minutes. */
export function selectSignInTroubles() {
  return sqlDb()
    .selectFrom("audit_events")
    .select((eb) => [
      countWhere(eb("action", "=", sql.lit("auth.sign_in_failed"))).as("failures"),
      countWhere(eb("action", "=", sql.lit("auth.locked_out"))).as("lockouts"),
    ])
    .where("action", "in", [sql.lit("auth.sign_in_failed"), sql.lit("auth.locked_out")])
    .where("at", ">", sql<Date>`now() - interval '15 minutes'`);
}

/** How long the oldest runnable job has waited, in seconds (0 when none): graphile-worker's own table. */
export function selectJobQueueLag() {
  return sql<{ lag: number }>`
    SELECT coalesce(extract(epoch FROM now() - min(run_at)), 0)::float8 AS lag
      FROM graphile_worker.jobs WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts`;
}

/** The migrations applied and not rolled back (Prisma Migrate's table). */
export function selectAppliedMigrations() {
  return sql<{ migration_name: string }>`
    SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
}
