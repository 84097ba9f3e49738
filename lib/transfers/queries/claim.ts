// A pharmacist's claim on a transfer under review (claim-transfer.ts says what a claim is).
import { sql } from "kysely";
import { sqlDb } from "@/lib/db/kysely";

/**
 * Takes or renews the claim for `seconds`: one conditional UPDATE, so two pharmacists can never both hold it.
 * was_mine: the claim was already this pharmacist's and live (a renewal, not worth an audit record).
 * FOR UPDATE: two claims at the same moment (React's development double-invocation, two tabs) queue on the
 * row lock, and the second reads the first's committed claim, so it is a renewal, not a second audited claim.
 */
export function takeClaim(transferId: string, userId: string, seconds: number) {
  return sqlDb()
    .with("before", (q) =>
      q
        .selectFrom("transfers")
        .select((eb) => [
          "id",
          eb.fn
            .coalesce(
              eb.and([eb("claimed_by_id", "=", userId), eb("claim_expires_at", ">", sql<Date>`now()`)]),
              sql.lit(false),
            )
            .$castTo<boolean>()
            .as("was_mine"),
        ])
        .where("id", "=", transferId)
        .forUpdate(),
    )
    .updateTable("transfers as t")
    .set({
      claimed_by_id: userId,
      claim_expires_at: sql<Date>`now() + make_interval(secs => ${seconds}::float8)`,
    })
    .from("before")
    .whereRef("t.id", "=", "before.id")
    .where("t.status", "=", sql.lit("RECEIVED" as const))
    .where((eb) =>
      eb.or([
        eb("t.claimed_by_id", "is", null),
        eb("t.claim_expires_at", "<=", sql<Date>`now()`),
        eb("t.claimed_by_id", "=", userId),
      ]),
    )
    .returning((eb) => [
      "t.claim_expires_at",
      eb.fn.coalesce("before.was_mine", sql.lit(false)).$castTo<boolean>().as("was_mine"),
    ]);
}

/** Gives the claim back (only the holder's, and only while the transfer waits). */
export function releaseClaim(transferId: string, userId: string) {
  return sqlDb()
    .updateTable("transfers")
    .set({ claimed_by_id: null, claim_expires_at: null })
    .where("id", "=", transferId)
    .where("claimed_by_id", "=", userId)
    .where("status", "=", sql.lit("RECEIVED" as const));
}
