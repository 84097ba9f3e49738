// Successful attempts recorded in one statement (record-callback-successes.ts): the answers, the callbacks
// delivered, the partners' failure marks cleared and the delivered callbacks' jobs removed.
import { sql } from "kysely";
import { tstz } from "@/lib/callbacks/queries/callback-row";
import { removeDeliveryJobs } from "@/lib/callbacks/queries/job-queue";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb } from "@/lib/db/kysely";

type SuccessValues = {
  ids: string[];
  attempts: number[];
  codes: (number | null)[];
  errors: (string | null)[];
  latencies: number[];
  types: (string | null)[];
  excerpts: (string | null)[];
  partnerIds: string[];
  now: Date;
};

/** Successful attempts recorded in one statement (record-callback-successes.ts). */
export const recordSuccessesStatement = compiledStatement((v: SuccessValues) =>
  sqlDb()
    .with("done", (db) =>
      db
        .selectFrom(
          sql<{
            callback_id: string;
            attempt_number: number;
            status_code: number | null;
            error: string | null;
            latency_ms: number;
            sender_response_type: string | null;
            response_excerpt: string | null;
          }>`unnest(${v.ids}::text[], ${v.attempts}::int[], ${v.codes}::int[], ${v.errors}::text[],
                    ${v.latencies}::int[], ${v.types}::text[], ${v.excerpts}::text[])`.as(
            sql`d(callback_id, attempt_number, status_code, error, latency_ms, sender_response_type, response_excerpt)`,
          ),
        )
        .selectAll(),
    )
    .with("attempt", (db) =>
      db
        .updateTable("callback_attempts as a")
        .from("done as d")
        .set((eb) => ({
          status_code: eb.ref("d.status_code"),
          error: eb.ref("d.error"),
          latency_ms: eb.ref("d.latency_ms"),
          sender_response_type: eb.ref("d.sender_response_type"),
          response_excerpt: eb.ref("d.response_excerpt"),
        }))
        .whereRef("a.callback_id", "=", "d.callback_id")
        .whereRef("a.attempt_number", "=", "d.attempt_number"),
    )
    .with("delivered", (db) =>
      db
        .updateTable("callbacks as c")
        .from("done as d")
        .set((eb) => ({
          status: sql.lit("DELIVERED"),
          delivered_at: tstz(v.now),
          next_attempt_at: sql.lit(null),
          last_status_code: eb.ref("d.status_code"),
          last_error: sql.lit(null),
        }))
        .whereRef("c.id", "=", "d.callback_id")
        .where("c.status", "<>", sql.lit("DELIVERED"))
        .returning("c.id"),
    )
    // The partners' failure marks cleared, written only when set (an unconditional write would lock the
    // partner's row, and concurrent deliveries to that partner would queue on it).
    .with("partner", (db) =>
      db
        .updateTable("partners")
        .set({ callback_failing_since: sql.lit(null), callback_gone_at: sql.lit(null) })
        .where((eb) => eb("id", "=", eb.fn.any(sql<string[]>`${v.partnerIds}::text[]`)))
        .where((eb) => eb.or([eb("callback_failing_since", "is not", null), eb("callback_gone_at", "is not", null)])),
    )
    .with("removed", (db) =>
      db
        .selectFrom(removeDeliveryJobs(db.selectFrom("delivered").select("delivered.id")).as("j"))
        .select(sql<number>`1`.as("job")),
    )
    .selectNoFrom((eb) =>
      eb
        .selectFrom("removed")
        .select(sql<number>`count(*)::int`.as("n"))
        .as("removed"),
    ),
);
