// The audit records a transfer's activity timeline reads (get-transfer-activity.ts): the latest actions other
// than views, listed, and the views, counted per person and screen in 15-minute buckets that the store's days
// are then made of. Both read audit_events by transfer_id.
import { sql } from "kysely";
import { sqlDb, type RowOf } from "@/lib/db/kysely";

/** The audit actions that are views of the transfer: counted, never listed one by one. */
export const VIEW_ACTIONS = ["transfer.viewed", "transfer.history_viewed"];

/** The transfer's latest `limit` audit records other than views, newest first. */
export function selectActivityEvents(referenceID: string, limit: number) {
  return sqlDb()
    .selectFrom("audit_events as e")
    .leftJoin("users as u", "u.id", "e.user_id")
    .select(["e.at", "e.actor", "e.action", "e.details", "u.name as user_name"])
    .where("e.transfer_id", "=", referenceID)
    .where((eb) => sql<boolean>`${eb.ref("e.action")} <> ALL (${VIEW_ACTIONS}::text[])`)
    .orderBy("e.id", "desc")
    .limit(limit);
}

export type ActivityEventRow = RowOf<ReturnType<typeof selectActivityEvents>>;

/**
 * The transfer's views in 15-minute buckets per person and screen: first and last view, how many. The
 * screen is the view's own (review, record, api) or "history" for the patient history.
 */
export function selectViewBuckets(referenceID: string) {
  return sqlDb()
    .selectFrom("audit_events as e")
    .leftJoin("users as u", "u.id", "e.user_id")
    .select((eb) => [
      eb.fn.min("e.at").as("first_at"),
      eb.fn.max("e.at").as("last_at"),
      sql<number>`count(*)::int`.as("n"),
      "e.user_id",
      "e.actor",
      "u.name as user_name",
      eb
        .case()
        .when("e.action", "=", sql.lit("transfer.history_viewed"))
        .then(sql.lit("history"))
        .else(eb.fn.coalesce(sql<string | null>`${eb.ref("e.details")}->>'screen'`, sql.lit("review")))
        .end()
        .$castTo<string>()
        .as("screen"),
    ])
    .where("e.transfer_id", "=", referenceID)
    .where((eb) => sql<boolean>`${eb.ref("e.action")} = ANY (${VIEW_ACTIONS}::text[])`)
    .groupBy((eb) => [
      sql`floor(extract(epoch FROM ${eb.ref("e.at")}) / 900)`,
      "e.user_id",
      "e.actor",
      "u.name",
      sql.ref("screen"),
    ]);
}

export type ViewBucketRow = RowOf<ReturnType<typeof selectViewBuckets>>;
