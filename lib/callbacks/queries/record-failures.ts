// A batch's failed attempts recorded (record-callback-failures.ts): the callbacks locked, their latest automatic
// attempts read, and the answers, partners failing, retries planned or given up written in one statement.
import { sql } from "kysely";
import type { CallbackStatus } from "@/generated/kysely/enums";
import { addDeliveryJobs, deliveryJobSpec, removeDeliveryJobs } from "@/lib/callbacks/queries/job-queue";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb } from "@/lib/db/kysely";

/** The batch's callbacks, locked in id order (record-callback-failures.ts). */
export const lockFailedCallbacksStatement = compiledStatement((v: { ids: string[] }) =>
  sqlDb()
    .selectFrom("callbacks")
    .select((eb) => ["id", eb.cast<CallbackStatus>("status", "text").as("status"), "transfer_id", "created_at"])
    .where((eb) => eb("id", "=", eb.fn.any(sql<string[]>`${v.ids}::text[]`)))
    .orderBy("id")
    .forUpdate(),
);

/** Each of the batch's callbacks' latest automatic attempt. */
export const latestAutomaticAttemptsStatement = compiledStatement((v: { ids: string[] }) =>
  sqlDb()
    .selectFrom("callback_attempts")
    .select(["callback_id", sql<number>`max(attempt_number)::int`.as("n")])
    .where((eb) => eb("callback_id", "=", eb.fn.any(sql<string[]>`${v.ids}::text[]`)))
    .where("manual", "=", sql.lit(false))
    .groupBy("callback_id"),
);

export type FailureValues = {
  ids: string[];
  attempts: number[];
  codes: (number | null)[];
  errors: (string | null)[];
  latencies: number[];
  responseTypes: (string | null)[];
  errorTypes: (string | null)[];
  descriptions: (string | null)[];
  excerpts: (string | null)[];
  writeLast: boolean[];
  lastErrors: string[];
  owns: boolean[];
  nextAt: (Date | null)[];
  giveUp: boolean[];
  failingPartners: string[];
  failingSince: Date[];
  laterPriority: number;
};

/** A batch's failures written in one statement: answers, partners failing, retries planned or given up. */
export const recordFailuresStatement = compiledStatement((v: FailureValues) =>
  sqlDb()
    .with("f", (db) =>
      db
        .selectFrom(
          sql<{
            callback_id: string;
            attempt_number: number;
            status_code: number | null;
            error: string | null;
            latency_ms: number;
            sender_response_type: string | null;
            sender_error_type: string | null;
            sender_error_description: string | null;
            response_excerpt: string | null;
            write_last: boolean;
            last_error: string;
            owns: boolean;
            next_at: Date | null;
            give_up: boolean;
          }>`unnest(${v.ids}::text[], ${v.attempts}::int[], ${v.codes}::int[], ${v.errors}::text[],
                    ${v.latencies}::int[], ${v.responseTypes}::text[], ${v.errorTypes}::text[],
                    ${v.descriptions}::text[], ${v.excerpts}::text[], ${v.writeLast}::boolean[],
                    ${v.lastErrors}::text[], ${v.owns}::boolean[], ${v.nextAt}::timestamptz[],
                    ${v.giveUp}::boolean[])`.as(
            sql`f(callback_id, attempt_number, status_code, error, latency_ms, sender_response_type,
                  sender_error_type, sender_error_description, response_excerpt, write_last, last_error, owns,
                  next_at, give_up)`,
          ),
        )
        .selectAll(),
    )
    .with("attempt", (db) =>
      db
        .updateTable("callback_attempts as a")
        .from("f")
        .set((eb) => ({
          status_code: eb.ref("f.status_code"),
          error: eb.ref("f.error"),
          latency_ms: eb.ref("f.latency_ms"),
          sender_response_type: eb.ref("f.sender_response_type"),
          sender_error_type: eb.ref("f.sender_error_type"),
          sender_error_description: eb.ref("f.sender_error_description"),
          response_excerpt: eb.ref("f.response_excerpt"),
        }))
        .whereRef("a.callback_id", "=", "f.callback_id")
        .whereRef("a.attempt_number", "=", "f.attempt_number"),
    )
    .with("failing", (db) =>
      db
        .selectFrom(
          sql<{ id: string; since: Date }>`unnest(${v.failingPartners}::text[], ${v.failingSince}::timestamptz[])`.as(
            sql`s(id, since)`,
          ),
        )
        .selectAll(),
    )
    .with("partner", (db) =>
      db
        .updateTable("partners as p")
        .from("failing as s")
        .set((eb) => ({ callback_failing_since: eb.ref("s.since") }))
        .whereRef("p.id", "=", "s.id")
        .where("p.callback_failing_since", "is", null),
    )
    .with("callback", (db) =>
      db
        .updateTable("callbacks as c")
        .from("f")
        .set((eb) => ({
          last_status_code: eb
            .case()
            .when(eb.ref("f.write_last"))
            .then(eb.ref("f.status_code"))
            .else(eb.ref("c.last_status_code"))
            .end(),
          last_error: eb
            .case()
            .when(eb.ref("f.write_last"))
            .then(eb.ref("f.last_error"))
            .else(eb.ref("c.last_error"))
            .end(),
          status: eb
            .case()
            .when(eb.ref("f.give_up"))
            .then(sql<CallbackStatus>`'FAILED'`)
            .else(eb.ref("c.status"))
            .end(),
          next_attempt_at: eb
            .case()
            .when(eb.ref("f.give_up"))
            .then(sql<Date | null>`NULL`)
            .when(eb.ref("f.owns"))
            .then(eb.ref("f.next_at"))
            .else(eb.ref("c.next_attempt_at"))
            .end(),
        }))
        .whereRef("c.id", "=", "f.callback_id")
        .where((eb) => eb.or([eb.ref("f.write_last"), eb.ref("f.owns")])),
    )
    .with("moved", (db) =>
      db
        .selectFrom(
          addDeliveryJobs(
            db
              .selectFrom("f")
              .select(
                deliveryJobSpec(sql.ref("f.callback_id"), sql.ref("f.next_at"), sql`${v.laterPriority}`).as("spec"),
              )
              .where("f.owns", "=", sql.lit(true))
              .where("f.give_up", "=", sql.lit(false))
              .orderBy("f.callback_id"),
          ).as("j"),
        )
        .select(sql<number>`1`.as("job")),
    )
    .with("dropped", (db) =>
      db
        .selectFrom(
          removeDeliveryJobs(db.selectFrom("f").select("f.callback_id").where("f.give_up", "=", sql.lit(true))).as("j"),
        )
        .select(sql<number>`1`.as("job")),
    )
    .selectNoFrom((eb) => [
      eb
        .selectFrom("moved")
        .select(sql<number>`count(*)::int`.as("n"))
        .as("moved"),
      eb
        .selectFrom("dropped")
        .select(sql<number>`count(*)::int`.as("n"))
        .as("dropped"),
    ]),
);
