// The batch claim (claim-due-callbacks.ts): the running jobs' own callbacks and more of their partners' due
// ones, claimed in one statement, each claimed callback's job moved to the lease's end.
import { sql } from "kysely";
import { callbackColumns, PARTNER_COLUMNS } from "@/lib/callbacks/queries/callback-row";
import { due, priorAutomaticAttempts, withClaimSteps, type ClaimStepValues } from "@/lib/callbacks/queries/claim-steps";
import { addDeliveryJobs, deliveryJobSpec, hasRunnableJob } from "@/lib/callbacks/queries/job-queue";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb, type RowOf } from "@/lib/db/kysely";

type DueClaimsValues = ClaimStepValues & {
  /** The running jobs' callbacks: whose partners' due callbacks are claimed, never one of them among those. */
  callbackIds: string[];
  /** The ones of them to claim when due: all of them, or none when a drain claims its partners' next batch. */
  ownIds: string[];
  othersLimit: number;
  earlyToleranceMs: number;
  /** The moved jobs' priority: an attempt queued for a time (lib/callbacks/job-queue.ts). */
  laterPriority: number;
};

/** The running jobs' own callbacks and more of their partners' due ones, claimed in one statement (claim-due-callbacks.ts). */
export const claimDueCallbacksStatement = compiledStatement((v: DueClaimsValues) => {
  const ids = sql<string[]>`${v.callbackIds}::text[]`;
  const picked = sqlDb()
    .with("own", (db) =>
      db
        .selectFrom("callbacks as c")
        .select(["c.id", "c.partner_id"])
        .where((eb) => eb("c.id", "=", eb.fn.any(sql<string[]>`${v.ownIds}::text[]`)))
        .where("c.status", "=", sql.lit("PENDING"))
        .where(due(v.earlyToleranceMs))
        .forUpdate()
        .skipLocked(),
    )
    .with("others", (db) =>
      db
        .selectFrom("callbacks as c")
        .select(["c.id", "c.partner_id"])
        .where("c.partner_id", "in", (eb) =>
          eb
            .selectFrom("callbacks")
            .select("partner_id")
            .where((e) => e("id", "=", e.fn.any(ids))),
        )
        .where("c.status", "=", sql.lit("PENDING"))
        .where(sql<boolean>`c.id <> ALL(${ids})`)
        // Due now, without the early tolerance a woken job gets: a partner's Retry-After is kept to the letter.
        .where("c.next_attempt_at", "<=", sql<Date>`clock_timestamp()`)
        .where(hasRunnableJob("c.id"))
        .orderBy("c.next_attempt_at")
        .orderBy("c.id")
        .limit(sql<number>`${v.othersLimit}::int`)
        .forUpdate()
        .skipLocked(),
    )
    .with("picked", (db) => db.selectFrom("own").selectAll().unionAll(db.selectFrom("others").selectAll()))
    .with("c", (db) =>
      db
        .selectFrom("picked as k")
        .innerJoin("callbacks as c", "c.id", "k.id")
        .innerJoin("partners as p", "p.id", "c.partner_id")
        .select((eb) => [...callbackColumns(eb), ...PARTNER_COLUMNS]),
    );
  return (
    withClaimSteps(picked, v)
      // Every claimed callback's job moved to the lease's end.
      .with("moved", (db) =>
        db
          .selectFrom(
            addDeliveryJobs(
              db
                .selectFrom("claimed")
                .select(deliveryJobSpec(sql.ref("claimed.id"), sql`${v.lease}`, sql`${v.laterPriority}`).as("spec"))
                .orderBy("claimed.id"),
            ).as("j"),
          )
          .select(sql<number>`1`.as("job")),
      )
      .selectFrom("c")
      .innerJoin("claimed", "claimed.id", "c.id")
      .selectAll("c")
      .select((eb) => [
        "claimed.attempt_count as claimed",
        priorAutomaticAttempts(),
        eb
          .selectFrom("moved")
          .select(sql<number>`count(*)::int`.as("n"))
          .as("moved"),
      ])
      .orderBy(sql`c.id = ANY(${ids})`, "desc")
      .orderBy("c.next_attempt_at")
      .orderBy("c.id")
  );
});

export type DueClaimRow = RowOf<ReturnType<typeof claimDueCallbacksStatement>>;
