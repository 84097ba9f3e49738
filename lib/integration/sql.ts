// The integration feed's and integration keys' statements (typed: lib/db/kysely.ts).
import { sql } from "kysely";
import { sqlDb } from "@/lib/db/kysely";

const FEED_LOCK = 7324017;

/** The approval's entry, queued unnumbered (feed-entries.ts says why). */
export function insertFeedEntry(entry: { transferId: string; approvedAt: Date }) {
  return sqlDb()
    .insertInto("integration_feed_pending")
    .values({ transfer_id: entry.transferId, approved_at: sql<Date>`${entry.approvedAt}::timestamptz` });
}

/** The numberers' lock, held to the end of the transaction. */
export function lockFeedNumbering() {
  return sqlDb().selectNoFrom(sql<unknown>`pg_advisory_xact_lock(${FEED_LOCK}::bigint)`.as("locked"));
}

/** Every committed pending entry moved into the feed, oldest approval first. */
export function numberPendingEntries() {
  return sqlDb()
    .with("moved", (q) => q.deleteFrom("integration_feed_pending").returning(["transfer_id", "approved_at"]))
    .insertInto("integration_feed")
    .columns(["transfer_id", "approved_at"])
    .expression((eb) =>
      eb.selectFrom("moved").select(["transfer_id", "approved_at"]).orderBy("approved_at").orderBy("transfer_id"),
    );
}

export function selectAnyPendingEntry() {
  return sqlDb().selectNoFrom(({ exists, selectFrom }) =>
    exists(selectFrom("integration_feed_pending").select(sql`1`.as("one"))).as("any"),
  );
}

/**
 * Feed entries after `after`: an approval, or a verified automatic confirmation (lib/immediate-confirm),
 * whose entry is queued only when a pharmacist verifies it.
 */
export function selectFeedPage(opts: { after: bigint; limit: number }) {
  return sqlDb()
    .selectFrom("integration_feed as f")
    .innerJoin("transfers as t", "t.id", "f.transfer_id")
    .leftJoin("transfer_decisions as d", "d.transfer_id", "f.transfer_id")
    .select((eb) => [
      "f.seq",
      "f.transfer_id",
      "f.approved_at",
      "t.request",
      "d.local_rx_number",
      eb.fn.coalesce("d.drug_schedule", "t.drug_schedule").as("drug_schedule"),
    ])
    .where("f.seq", ">", opts.after.toString())
    .where((eb) =>
      eb.or([
        eb("d.transfer_id", "is not", null),
        eb.exists(
          eb
            .selectFrom("immediate_confirmations as c")
            .select(sql`1`.as("one"))
            .whereRef("c.transfer_id", "=", "f.transfer_id")
            .where("c.verified_at", "is not", null),
        ),
      ]),
    )
    .orderBy("f.seq")
    .limit(opts.limit);
}

export function lockIntegrationKey(keyId: string) {
  return sqlDb().selectFrom("integration_keys").select("revoked_at").where("id", "=", keyId).forUpdate();
}

/** last_used_at at most once a minute per key (a write per request would be one per feed read). */
export function touchIntegrationKey(keyId: string) {
  return sqlDb()
    .updateTable("integration_keys")
    .set({ last_used_at: sql<Date>`now()` })
    .where("id", "=", keyId)
    .where((eb) =>
      eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", sql<Date>`now() - interval '1 minute'`)]),
    );
}
