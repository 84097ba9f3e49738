// The batch claim (claim-due-callbacks.ts): the running jobs' own callbacks and more of their partners' due
// ones, claimed in one statement, each claimed callback's job moved to the lease's end.
import { sql } from "kysely";
import { callbackColumns, PARTNER_COLUMNS } from "@/lib/callbacks/queries/callback-row";
import { due, priorAutomaticAttempts, withClaimSteps, type ClaimStepValues } from "@/lib/callbacks/queries/claim-steps";
import { DELIVER_TASK, hasRunnableJob } from "@/lib/callbacks/queries/job-queue";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb, type RowOf } from "@/lib/db/kysely";

type DueClaimsValues = ClaimStepValues & {
  callbackIds: string[];
  othersLimit: number;
  earlyToleranceMs: number;
};

/** The running jobs' own callbacks and more of their partners' due ones, claimed in one statement (claim-due-callbacks.ts). */
export const claimDueCallbacksStatement = compiledStatement((v: DueClaimsValues) => {
  const ids = sql<string[]>`${v.callbackIds}::text[]`;
  const picked = sqlDb()
    .with("own", (db) =>
      db
        .selectFrom("callbacks as c")
        .select(["c.id", "c.partner_id"])
        .where((eb) => eb("c.id", "=", eb.fn.any(ids)))
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
        db.selectFrom("claimed").select(
          sql<unknown>`graphile_worker.add_job(${DELIVER_TASK}::text, json_build_object('callbackId', claimed.id),
               run_at := ${v.lease}::timestamptz, job_key := claimed.id)`.as("job"),
        ),
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
