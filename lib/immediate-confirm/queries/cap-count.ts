// The hourly cap's statements: the per-store counts (ten-minute buckets, a few shards each, so that
// concurrent confirmations rarely wait on one row) that give the judging statement an upper bound of the last
// hour's confirmations, and, near the cap, the store's cap lock and the exact count (confirm-at-intake.ts says
// how the two keep the cap exact).
import { sql, type RawBuilder } from "kysely";
import { sqlDb } from "@/lib/db/kysely";

/** Confirmations in flight at one store that may go ahead on the bound without the store's cap lock. */
export const CAP_MARGIN = 64;
/** The counts' bucket: the bound reads the buckets from the one holding the hour's start, so up to this much more. */
export const BUCKET_MS = 10 * 60_000;
const SHARDS = 8;

export function bucketStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / BUCKET_MS) * BUCKET_MS);
}

/**
 * One more confirmation in its bucket, on the writing connection's shard (a CTE of the decision's statement);
 * with `when`, only if it holds.
 */
export function countConfirmation(storeId: string, bucket: Date, when: RawBuilder<boolean> = sql<boolean>`true`) {
  return sqlDb()
    .insertInto("immediate_confirm_counts")
    .columns(["store_id", "bucket_start", "shard", "n"])
    .expression(
      sqlDb()
        .selectNoFrom([
          sql<string>`${storeId}::text`.as("store_id"),
          sql<Date>`${bucket}::timestamptz`.as("bucket_start"),
          sql<number>`pg_backend_pid() % ${sql.lit(SHARDS)}`.as("shard"),
          sql<number>`1`.as("n"),
        ])
        .where(when),
    )
    .onConflict((oc) =>
      oc.columns(["store_id", "bucket_start", "shard"]).doUpdateSet({ n: sql<number>`immediate_confirm_counts.n + 1` }),
    );
}

/** The counts no bound reads any more (it reads from the bucket holding the hour's start). */
export function deleteCountsBefore(before: Date) {
  return sqlDb().deleteFrom("immediate_confirm_counts").where("bucket_start", "<", before);
}

/** Near the cap: one confirmation at a time per store, each counting what committed before it. */
export function lockStoreCap(storeId: string) {
  return sqlDb().selectNoFrom(
    sql<boolean>`pg_advisory_xact_lock(hashtextextended(${`immediate-cap:${storeId}`}::text, 0)) IS NULL`.as("locked"),
  );
}

/** This store's confirmations since `since`, counted no further than `cap`. */
export function countRecentConfirmations(storeId: string, since: Date, cap: number) {
  return sqlDb()
    .selectFrom((db) =>
      db
        .selectFrom("immediate_confirmations")
        .select(sql.lit(1).as("one"))
        .where("store_id", "=", storeId)
        .where("confirmed_at", ">", since)
        .limit(cap)
        .as("recent"),
    )
    .select(sql<number>`count(*)::int`.as("n"));
}
