// The callbacks' statements (typed: lib/db/kysely.ts): the outbox's jobs, the claims, the answers recorded.
// The worker's statements run for every callback, so each is compiled once (lib/db/compiled-statement.ts);
// most run on the pool, without Prisma's per-statement cost (lib/db/pool-query.ts).
//
// graphile-worker's own tables and functions (graphile_worker.jobs, add_job, remove_job) are not in
// schema.prisma (its schema is installed by lib/callbacks/job-queue-schema.ts): they are written here, once,
// as SQL fragments whose rows nothing reads.
import { sql, type Expression, type ExpressionBuilder, type Selectable } from "kysely";
import type { CallbackStatus } from "@/generated/kysely/enums";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb, type Database, type RowOf } from "@/lib/db/kysely";

export const DELIVER_TASK = "deliver-callback";

/** An attempt whose worker died before recording an answer, as its timeline says it. */
const INTERRUPTED = "interrupted: no answer was recorded (the worker stopped during the attempt)";

const tstz = (at: Date | null) => sql<Date>`${at}::timestamptz`;

// graphile-worker's SQL API.

/** graphile_worker.add_job for a callback's automatic delivery job, keyed by the callback's id. */
export function addDeliveryJob(callbackId: string, runAt: Date | null, priority: number) {
  return sql<unknown>`graphile_worker.add_job(
      ${DELIVER_TASK}::text,
      json_build_object('callbackId', ${callbackId}::text),
      run_at := coalesce(${runAt}::timestamptz, now()),
      job_key := ${callbackId}::text,
      priority := ${priority}::int
    )`;
}

export const scheduleDeliveryStatement = compiledStatement(
  (v: { callbackId: string; runAt: Date | null; priority: number }) =>
    sqlDb().selectNoFrom(addDeliveryJob(v.callbackId, v.runAt, v.priority).as("job")),
);

export function selectRedeliveryJob(callbackId: string, jobKey: string) {
  return sqlDb().selectNoFrom(
    sql<unknown>`graphile_worker.add_job(
      ${DELIVER_TASK}::text,
      json_build_object('callbackId', ${callbackId}::text, 'manual', true),
      job_key := ${jobKey}::text
    )`.as("job"),
  );
}

/** graphile_worker.remove_job of a callback's waiting automatic job. */
export function removeDeliveryJob(callbackId: string | Expression<string>) {
  return sql<unknown>`graphile_worker.remove_job(${callbackId}::text)`;
}

export const cancelDeliveryStatement = compiledStatement((v: { callbackId: string }) =>
  sqlDb().selectNoFrom(removeDeliveryJob(v.callbackId).as("job")),
);

/** Whether the callback (column `id`) has a job no worker holds that may still run. */
const hasRunnableJob = (id: string) =>
  sql<boolean>`EXISTS (SELECT 1 FROM graphile_worker.jobs j
                        WHERE j.key = ${sql.ref(id)} AND j.locked_at IS NULL AND j.attempts < j.max_attempts)`;

/** Every PENDING callback without a runnable job given one again, in callback-id order (job-queue.ts). */
export function queueStrandedCallbacks() {
  return sqlDb()
    .with("stranded", (db) =>
      db
        .selectFrom("callbacks as c")
        .select(["c.id", "c.next_attempt_at"])
        .where("c.status", "=", sql.lit("PENDING"))
        .where((eb) => eb.not(hasRunnableJob("c.id"))),
    )
    .with("queued", (db) =>
      db
        .selectFrom("stranded as s")
        .select(
          sql<unknown>`graphile_worker.add_job(
            ${DELIVER_TASK}::text,
            json_build_object('callbackId', s.id),
            run_at := greatest(coalesce(s.next_attempt_at, now()), now()),
            job_key := s.id
          )`.as("job"),
        )
        .orderBy("s.id"),
    )
    .selectFrom("queued")
    .select(sql<number>`count(*)::int`.as("queued"));
}

// A callback as the worker reads it.

function callbackColumns(eb: ExpressionBuilder<Database & { c: Database["callbacks"] }, "c">) {
  return [
    "c.id",
    "c.transfer_id",
    "c.partner_id",
    "c.payload",
    eb.cast<CallbackStatus>("c.status", "text").as("status"),
    "c.attempt_count",
    "c.next_attempt_at",
    "c.created_at",
    // The database's clock, which graphile-worker's run_at is compared with.
    sql<Date>`clock_timestamp()`.as("db_now"),
  ] as const;
}

const PARTNER_COLUMNS = [
  "p.callback_url",
  "p.webhook_secret",
  "p.previous_webhook_secret",
  "p.previous_secret_expires_at",
  "p.outbound_header_name",
  "p.outbound_header_value",
] as const;

/** The callback, locked. */
export function lockCallback(callbackId: string) {
  return sqlDb()
    .selectFrom("callbacks as c")
    .select((eb) => callbackColumns(eb))
    .where("c.id", "=", callbackId)
    .forUpdate();
}

/** The callback, locked, with its partner's delivery settings (null when the partner is missing). */
export function lockCallbackForAttempt(callbackId: string) {
  return sqlDb()
    .selectFrom("callbacks as c")
    .leftJoin("partners as p", "p.id", "c.partner_id")
    .select((eb) => [...callbackColumns(eb), ...PARTNER_COLUMNS])
    .where("c.id", "=", callbackId)
    .forUpdate(["c"]);
}

/** A callback's columns as the worker reads them. */
export type CallbackRow = RowOf<ReturnType<typeof lockCallback>>;

/** A partner's delivery settings. */
export type PartnerRow = Pick<
  Selectable<Database["partners"]>,
  | "callback_url"
  | "webhook_secret"
  | "previous_webhook_secret"
  | "previous_secret_expires_at"
  | "outbound_header_name"
  | "outbound_header_value"
>;

// Claims.

const due = (earlyToleranceMs: number) =>
  sql<boolean>`(c.next_attempt_at IS NULL
    OR c.next_attempt_at <= clock_timestamp() + ${earlyToleranceMs}::int * interval '1 millisecond')`;

type ClaimValues = {
  callbackId: string;
  earlyToleranceMs: number;
  now: Date;
  lease: Date;
  interruptedBefore: Date;
};

/**
 * One automatic attempt of a PENDING callback that is due, claimed in one statement (claim-callback-attempt.ts):
 * `claimed` is null when another worker's insert won.
 */
export const claimDueAttemptStatement = compiledStatement((v: ClaimValues) =>
  sqlDb()
    .with("c", (db) =>
      db
        .selectFrom("callbacks as c")
        .innerJoin("partners as p", "p.id", "c.partner_id")
        .select((eb) => [...callbackColumns(eb), ...PARTNER_COLUMNS])
        .where("c.id", "=", v.callbackId)
        .where("c.status", "=", sql.lit("PENDING"))
        .where(due(v.earlyToleranceMs))
        .forUpdate(["c"]),
    )
    .with("interrupted", (db) =>
      db
        .updateTable("callback_attempts")
        .set({ error: sql.lit(INTERRUPTED) })
        .where("callback_id", "=", v.callbackId)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom("c")
              .select(sql`1`.as("one"))
              .where("c.attempt_count", ">", sql.lit(0)),
          ),
        )
        .where("status_code", "is", null)
        .where("error", "is", null)
        .where("started_at", "<", tstz(v.interruptedBefore)),
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
        .returning("attempt_number"),
    )
    .with("claimed", (db) =>
      db
        .updateTable("callbacks")
        .from("attempt")
        .set((eb) => ({ attempt_count: eb.ref("attempt.attempt_number"), next_attempt_at: tstz(v.lease) }))
        .where("callbacks.id", "=", v.callbackId)
        .returning("callbacks.attempt_count"),
    )
    .selectFrom("c")
    .selectAll("c")
    .select((eb) => [
      eb.selectFrom("claimed").select("claimed.attempt_count").as("claimed"),
      eb
        .selectFrom("callback_attempts as a")
        .select(sql<number>`count(*)::int`.as("n"))
        .whereRef("a.callback_id", "=", "c.id")
        .where("a.manual", "=", sql.lit(false))
        .$asScalar()
        .$notNull()
        .as("prior_automatic"),
    ]),
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

type DueClaimsValues = {
  callbackIds: string[];
  othersLimit: number;
  earlyToleranceMs: number;
  now: Date;
  lease: Date;
  interruptedBefore: Date;
};

/** The running jobs' own callbacks and more of their partners' due ones, claimed in one statement (claim-due-callbacks.ts). */
export const claimDueCallbacksStatement = compiledStatement((v: DueClaimsValues) => {
  const ids = sql<string[]>`${v.callbackIds}::text[]`;
  return (
    sqlDb()
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
      )
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
      .with("claimed", (db) =>
        db
          .updateTable("callbacks")
          .from("attempt")
          .set((eb) => ({ attempt_count: eb.ref("attempt.attempt_number"), next_attempt_at: tstz(v.lease) }))
          .whereRef("callbacks.id", "=", "attempt.callback_id")
          .returning(["callbacks.id", "callbacks.attempt_count"]),
      )
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
        eb
          .selectFrom("callback_attempts as a")
          .select(sql<number>`count(*)::int`.as("n"))
          .whereRef("a.callback_id", "=", "c.id")
          .where("a.manual", "=", sql.lit(false))
          .$asScalar()
          .$notNull()
          .as("prior_automatic"),
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

// Answers.

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
        .returning(["c.id", "c.transfer_id"]),
    )
    .with("transfer", (db) =>
      db
        .updateTable("transfers")
        .set({ callback_status: sql.lit("DELIVERED") })
        .where("id", "in", (eb) => eb.selectFrom("delivered").select("delivered.transfer_id")),
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
    .selectFrom("delivered as d")
    .select(removeDeliveryJob(sql.ref<string>("d.id")).as("removed")),
);

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
  givenUpTransfers: string[];
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
    .with("transfer", (db) =>
      db
        .updateTable("transfers")
        .set({ callback_status: sql.lit("FAILED") })
        .where((eb) => eb("id", "=", eb.fn.any(sql<string[]>`${v.givenUpTransfers}::text[]`))),
    )
    .with("moved", (db) =>
      db
        .selectFrom("f")
        .select(
          sql<unknown>`graphile_worker.add_job(${DELIVER_TASK}::text, json_build_object('callbackId', f.callback_id),
                 run_at := f.next_at, job_key := f.callback_id, priority := ${v.laterPriority}::int)`.as("job"),
        )
        .where("f.owns", "=", sql.lit(true))
        .where("f.give_up", "=", sql.lit(false))
        .orderBy("f.callback_id"),
    )
    .with("dropped", (db) =>
      db
        .selectFrom("f")
        .select(removeDeliveryJob(sql.ref<string>("f.callback_id")).as("job"))
        .where("f.give_up", "=", sql.lit(true))
        .orderBy("f.callback_id"),
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

// One callback's answer (deliver-callback.ts's recordOutcome), inside its Prisma transaction.

export function recordAttemptAnswer(a: {
  callbackId: string;
  attemptNumber: number;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  senderResponseType: string | null;
  senderErrorType: string | null;
  senderErrorDescription: string | null;
  excerpt: string | null;
}) {
  return sqlDb()
    .updateTable("callback_attempts")
    .set({
      status_code: a.statusCode,
      error: a.error,
      latency_ms: a.latencyMs,
      sender_response_type: a.senderResponseType,
      sender_error_type: a.senderErrorType,
      sender_error_description: a.senderErrorDescription,
      response_excerpt: a.excerpt,
    })
    .where("callback_id", "=", a.callbackId)
    .where("attempt_number", "=", a.attemptNumber);
}

/** The callback settled (REFUSED, GONE, FAILED): no next attempt, and its last answer when given. */
export function settleCallback(
  callbackId: string,
  status: "REFUSED" | "GONE" | "FAILED",
  last?: { statusCode: number | null; error: string },
) {
  return sqlDb()
    .updateTable("callbacks")
    .set({
      status: sql<CallbackStatus>`${status}::"CallbackStatus"`,
      next_attempt_at: null,
      ...(last ? { last_status_code: last.statusCode, last_error: last.error } : {}),
    })
    .where("id", "=", callbackId);
}

export function setTransferCallbackStatus(transferId: string, status: CallbackStatus) {
  return sqlDb()
    .updateTable("transfers")
    .set({ callback_status: sql<CallbackStatus>`${status}::"CallbackStatus"` })
    .where("id", "=", transferId);
}

export function setNextAttemptAt(callbackId: string, at: Date) {
  return sqlDb()
    .updateTable("callbacks")
    .set({ next_attempt_at: tstz(at) })
    .where("id", "=", callbackId);
}

export function setLastAnswer(callbackId: string, statusCode: number | null, error: string) {
  return sqlDb()
    .updateTable("callbacks")
    .set({ last_status_code: statusCode, last_error: error })
    .where("id", "=", callbackId);
}

/** The partner marked gone (410), keeping the first time it was. */
export function markPartnerGone(partnerId: string, at: Date) {
  return sqlDb()
    .updateTable("partners")
    .set((eb) => ({ callback_gone_at: eb.fn.coalesce("callback_gone_at", tstz(at)) }))
    .where("id", "=", partnerId);
}

/** The partner marked failing since `since`, unless it already is. */
export function markPartnerFailing(partnerId: string, since: Date) {
  return sqlDb()
    .updateTable("partners")
    .set({ callback_failing_since: tstz(since) })
    .where("id", "=", partnerId)
    .where("callback_failing_since", "is", null);
}
