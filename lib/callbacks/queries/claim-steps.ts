// What both claims do once they hold their callbacks (claim-attempt.ts: one callback; claim-due-callbacks.ts:
// a batch): attempts whose worker died marked so, the next attempt's row inserted (the claim) and the
// callback's lease moved only where that insert was ours. Written once so that the two claims cannot drift.
import { sql, type QueryCreator } from "kysely";
import { tstz } from "@/lib/callbacks/queries/callback-row";
import { sqlDb, type Database } from "@/lib/db/kysely";

/** An attempt whose worker died before recording an answer, as its timeline says it. */
export const INTERRUPTED = "interrupted: no answer was recorded (the worker stopped during the attempt)";

/** The callback `c` is due (or within the early tolerance a woken job gets). */
export const due = (earlyToleranceMs: number) =>
  sql<boolean>`(c.next_attempt_at IS NULL
    OR c.next_attempt_at <= clock_timestamp() + ${earlyToleranceMs}::int * interval '1 millisecond')`;

/** What the steps read: the statement's `c`, the callbacks to claim, locked. */
type Claimable = Database & { c: { id: string; attempt_count: number } };

export type ClaimStepValues = { now: Date; lease: Date; interruptedBefore: Date };

function claimSteps(qc: QueryCreator<Claimable>, v: ClaimStepValues) {
  return (
    qc
      .with("interrupted", (db) =>
        db
          .updateTable("callback_attempts as a")
          .from("c")
          .set({ error: sql.lit(INTERRUPTED) })
          .whereRef("a.callback_id", "=", "c.id")
          .where("c.attempt_count", ">", sql.lit(0))
          .where("a.status_code", "is", null)
          .where("a.error", "is", null)
          .where("a.started_at", "<", tstz(v.interruptedBefore)),
      )
      .with("attempt", (db) =>
        db
          .insertInto("callback_attempts")
          .columns(["callback_id", "attempt_number", "started_at", "manual"])
          .expression((eb) =>
            eb
              .selectFrom("c")
              .select((e) => [
                "c.id",
                sql<number>`c.attempt_count + 1`.as("n"),
                tstz(v.now).as("at"),
                e.lit(false).as("m"),
              ]),
          )
          .onConflict((oc) => oc.columns(["callback_id", "attempt_number"]).doNothing())
          .returning(["callback_id", "attempt_number"]),
      )
      // Only where the insert was ours: another worker's claim of the same attempt left no row in `attempt`.
      .with("claimed", (db) =>
        db
          .updateTable("callbacks")
          .from("attempt")
          .set((eb) => ({ attempt_count: eb.ref("attempt.attempt_number"), next_attempt_at: tstz(v.lease) }))
          .whereRef("callbacks.id", "=", "attempt.callback_id")
          .returning(["callbacks.id", "callbacks.attempt_count"]),
      )
  );
}

type TablesOf<Q> = Q extends QueryCreator<infer DB> ? DB : never;
type ClaimStepTables = Omit<TablesOf<ReturnType<typeof claimSteps>>, keyof Claimable>;

/**
 * The claim's steps added to a statement whose CTE `c` holds the callbacks to claim, locked: `claimed` then
 * holds (id, attempt_count) of each callback whose attempt this statement inserted.
 */
export function withClaimSteps<DB extends Claimable>(
  qc: QueryCreator<DB>,
  v: ClaimStepValues,
): QueryCreator<DB & ClaimStepTables> {
  // Kysely's builders cannot be typed over a generic set of tables: built over what the steps read, typed back.
  return claimSteps(qc as unknown as QueryCreator<Claimable>, v) as unknown as QueryCreator<DB & ClaimStepTables>;
}

/** How many automatic attempts the callback `c` had before this statement (its snapshot misses its own insert). */
export const priorAutomaticAttempts = () =>
  sqlDb()
    .selectFrom("callback_attempts as a")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("a.callback_id", "=", sql.ref<string>("c.id"))
    .where("a.manual", "=", sql.lit(false))
    .$asScalar()
    .$notNull()
    .as("prior_automatic");
