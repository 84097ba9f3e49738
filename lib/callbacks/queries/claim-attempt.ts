// One callback's claim (claim-callback-attempt.ts): the usual case in one statement, and the steps of the
// slower path it falls back to inside a transaction.
import { sql } from "kysely";
import { callbackColumns, PARTNER_COLUMNS, tstz } from "@/lib/callbacks/queries/callback-row";
import {
  due,
  INTERRUPTED,
  priorAutomaticAttempts,
  withClaimSteps,
  type ClaimStepValues,
} from "@/lib/callbacks/queries/claim-steps";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb } from "@/lib/db/kysely";

type ClaimValues = ClaimStepValues & { callbackId: string; earlyToleranceMs: number };

/**
 * One automatic attempt of a PENDING callback that is due, claimed in one statement (claim-callback-attempt.ts):
 * `claimed` is null when another worker's insert won.
 */
export const claimDueAttemptStatement = compiledStatement((v: ClaimValues) =>
  withClaimSteps(
    sqlDb().with("c", (db) =>
      db
        .selectFrom("callbacks as c")
        .innerJoin("partners as p", "p.id", "c.partner_id")
        .select((eb) => [...callbackColumns(eb), ...PARTNER_COLUMNS])
        .where("c.id", "=", v.callbackId)
        .where("c.status", "=", sql.lit("PENDING"))
        .where(due(v.earlyToleranceMs))
        .forUpdate(["c"]),
    ),
    v,
  )
    .selectFrom("c")
    .selectAll("c")
    .select((eb) => [eb.selectFrom("claimed").select("claimed.attempt_count").as("claimed"), priorAutomaticAttempts()]),
);

/** Attempts whose worker died before recording anything, marked so on the timeline. */
export function markInterruptedAttempts(callbackId: string, startedBefore: Date) {
  return sqlDb()
    .updateTable("callback_attempts")
    .set({ error: sql.lit(INTERRUPTED) })
    .where("callback_id", "=", callbackId)
    .where("status_code", "is", null)
    .where("error", "is", null)
    .where("started_at", "<", tstz(startedBefore));
}

/** The attempt row (the claim) inserted, and the callback moved on only if that insert was ours. */
export function insertAttemptClaim(c: {
  callbackId: string;
  attemptNumber: number;
  now: Date;
  manual: boolean;
  lease: Date | null;
}) {
  return sqlDb()
    .with("attempt", (db) =>
      db
        .insertInto("callback_attempts")
        .values({
          callback_id: c.callbackId,
          attempt_number: c.attemptNumber,
          started_at: tstz(c.now),
          manual: c.manual,
        })
        .onConflict((oc) => oc.columns(["callback_id", "attempt_number"]).doNothing())
        .returning("attempt_number"),
    )
    .updateTable("callbacks")
    .set({ attempt_count: c.attemptNumber, next_attempt_at: tstz(c.lease) })
    .where("id", "=", c.callbackId)
    .where(({ exists, selectFrom }) => exists(selectFrom("attempt").select(sql`1`.as("one"))))
    .returning("attempt_count");
}

/** How many automatic attempts the callback has had. */
export function countAutomaticAttempts(callbackId: string) {
  return sqlDb()
    .selectFrom("callback_attempts")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("callback_id", "=", callbackId)
    .where("manual", "=", sql.lit(false));
}

/** The number of the callback's latest automatic attempt (null when none). */
export function selectLatestAutomaticAttempt(callbackId: string) {
  return sqlDb()
    .selectFrom("callback_attempts")
    .select(sql<number | null>`max(attempt_number)::int`.as("n"))
    .where("callback_id", "=", callbackId)
    .where("manual", "=", sql.lit(false));
}
