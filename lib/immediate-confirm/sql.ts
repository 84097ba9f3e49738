// The immediate-confirmation statements (typed: lib/db/kysely.ts). Intake's two are hot, so each is built and
// compiled once (lib/db/compiled-statement.ts) and prepared once per connection (lib/db/pool-transaction.ts):
//   1. storeAndJudge: the policy's shared lock, the policy and the store's rules as they are, the database's
//      signals (an earlier rejection, duplicate therapy), an upper bound of the last hour's confirmations, the
//      transfer stored (CONFIRMED when all of that allows it; with the API key checked in the same statement
//      when intake trusts one) and, when confirmed, an audit chain's lock and the hash its record links to;
//   2. recordConfirmation (confirmImmediately after an exact count near the cap; recordMiss when it does not
//      qualify): the decision written under the policy's version, which this later statement reads after the
//      lock is held, so a policy changed meanwhile fails it and intake starts again: the decision record, the
//      count and the audit record.
import { sql, type Kysely } from "kysely";
import { insertAuditRecord, type AuditRecordRow } from "@/lib/audit/sql";
import { sqlDb, type Database } from "@/lib/db/kysely";
import { compiledStatement } from "@/lib/db/compiled-statement";
import {
  TRANSFER_COLUMNS,
  transferSource,
  withValidKey,
  type KeyArgs,
  type TransferInsert,
} from "@/lib/transfers/queries/intake";

/** The policy and the store's rules, as the cache and the transaction read them. */
export type PolicyFacts = {
  store_id: string;
  version: number;
  enabled: boolean;
  allow_listed_allergies: boolean;
  hourly_cap: number;
  /** Null when the owner is no longer an active pharmacist. */
  owner_name: string | null;
  owner_license: string | null;
  extra_schedules: unknown;
  rx_expiry_months: number;
  time_zone: string;
};

function policyFacts(db: Kysely<Database>) {
  return db
    .selectFrom("immediate_confirm_policies as p")
    .innerJoin("stores as s", "s.id", "p.store_id")
    .leftJoin("users as u", (join) =>
      join
        .onRef("u.id", "=", "p.owner_user_id")
        .on("u.disabled_at", "is", null)
        .on("u.role", "=", sql.lit("pharmacist")),
    )
    .select([
      "p.store_id",
      "p.version",
      "p.enabled",
      "p.allow_listed_allergies",
      "p.hourly_cap",
      "u.name as owner_name",
      "u.license_number as owner_license",
      "s.extra_schedules",
      "s.rx_expiry_months",
      "s.time_zone",
      "s.npi",
    ]);
}

/** Every store with the policy on (intake's cache). */
export function selectEnabledPolicies(db: Kysely<Database>) {
  return policyFacts(db).where("p.enabled", "=", true);
}

/** The key of a store's policy lock (one per store, by NPI: what intake knows before it reads anything). */
export function policyLockKey(npi: string): string {
  return `immediate-policy:${npi}`;
}

/**
 * A change of policy takes the store's policy lock exclusively, intake shared: a change waits for the
 * judgments in flight and no judgment reads a policy half-changed. An advisory lock lives in the lock
 * manager's memory; a row's share lock would write the policy row on every transfer.
 */
export function lockPolicyExclusively(npi: string) {
  return sqlDb().selectNoFrom(
    sql<boolean>`pg_advisory_xact_lock(hashtextextended(${policyLockKey(npi)}::text, 0)) IS NULL`.as("locked"),
  );
}

/** A change of policy: the store row locked, so that concurrent changes get consecutive versions. */
export function lockStoreRow(storeId: string) {
  return sqlDb().selectFrom("stores").select("id").where("id", "=", storeId).forUpdate();
}

/** Confirmations in flight at one store that may go ahead on the bound without the store's cap lock. */
export const CAP_MARGIN = 64;
/** The counts' bucket: the bound reads the buckets from the one holding the hour's start, so up to this much more. */
export const BUCKET_MS = 10 * 60_000;
const SHARDS = 8;

export function bucketStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / BUCKET_MS) * BUCKET_MS);
}

type JudgeArgs = TransferInsert & {
  npi: string;
  policyLockKey: string;
  /** The first bucket the bound reads: bucketStart(an hour ago). */
  boundSince: Date;
  /** The request alone qualifies under the cached policy of this version (qualify-transfer.ts). */
  mayConfirm: boolean;
  cachedVersion: number;
  /** The CONFIRMED answer the transfer is stored with if it qualifies here, JSON text, and its id and time. */
  confirmedResponse: string;
  confirmedResponseId: string;
  decidedAt: Date;
  chains: number;
  duplicateDays: number;
};

/**
 * The database's part of the judgment is read before the row is written, from the request's own values (the
 * new row is not visible to its own statement anyway), so that a transfer that qualifies is stored CONFIRMED
 * at once: no second version of the row. The patient's name key is the trigger's (migration
 * 20261124130000_patient_history), computed by the same SQL function.
 */
function judge(a: JudgeArgs, keyed: ((k: KeyArgs) => ReturnType<typeof withValidKey>) | null) {
  const start = keyed
    ? keyed(a as unknown as KeyArgs)
    : sqlDb().with("valid_key", (db) => db.selectNoFrom(sql<string>`'-'::text`.as("id")));
  const confirm = sql<boolean>`decision.confirm`;
  return (
    start
      .with("locked", (db) =>
        db.selectNoFrom(
          sql<boolean>`pg_advisory_xact_lock_shared(hashtextextended(${a.policyLockKey}::text, 0)) IS NULL`.as(
            "policy_locked",
          ),
        ),
      )
      .with("policy", () => policyFacts(sqlDb()).where("s.npi", "=", a.npi))
      .with("signals", (db) =>
        db.selectNoFrom(({ exists, selectFrom }) => [
          exists(
            selectFrom("transfers as h")
              .select(sql.lit(1).as("one"))
              .where("h.partner_id", "=", a.partner_id)
              .where("h.sending_npi", "=", a.sending_npi)
              .where("h.rx_number", "=", a.rx_number)
              .where("h.status", "=", "REJECTED"),
          ).as("rejected"),
          exists(
            selectFrom("transfers as h")
              .select(sql.lit(1).as("one"))
              .where("h.status", "in", ["RECEIVED", "CONFIRMED"])
              .where(
                "h.patient_name_key",
                "=",
                sql<string>`transfers_patient_name_part(${a.patient_last_name}::text) || '|' || transfers_patient_name_part(${a.patient_first_name}::text)`,
              )
              .where("h.patient_dob", "=", sql<Date>`${a.patient_dob}::date`)
              .where(sql<boolean>`${a.drug_substance_key}::text <> ''`)
              .where("h.drug_substance_key", "=", a.drug_substance_key)
              .where(
                "h.received_at",
                ">=",
                sql<Date>`${a.received_at}::timestamptz - make_interval(days => ${a.duplicateDays}::int)`,
              ),
          ).as("duplicate"),
        ]),
      )
      .with("bound", (db) =>
        db
          .selectFrom("immediate_confirm_counts as c")
          .innerJoin("policy", "policy.store_id", "c.store_id")
          .where("c.bucket_start", ">=", a.boundSince)
          .select(sql<number>`coalesce(sum(c.n), 0)::int`.as("n")),
      )
      .with("decision", (db) =>
        db.selectNoFrom(({ exists, selectFrom }) =>
          exists(
            selectFrom(["locked", "policy", "signals", "bound"])
              .select(sql.lit(1).as("one"))
              .where(sql<boolean>`${a.mayConfirm}::boolean`)
              .where("policy.enabled", "=", true)
              .where("policy.version", "=", sql<number>`${a.cachedVersion}::int`)
              .where("policy.owner_name", "is not", null)
              .where("signals.rejected", "=", false)
              .where("signals.duplicate", "=", false)
              .where(sql<boolean>`bound.n + ${sql.lit(CAP_MARGIN)} < policy.hourly_cap`),
          ).as("confirm"),
        ),
      )
      // The CONFIRMED answer once, as the response and the outcome (a parameter named twice is sent twice).
      .with("answer", (db) => db.selectNoFrom(sql<unknown>`${a.confirmedResponse}::jsonb`.as("confirmed")))
      .with("stored", (db) =>
        db
          .insertInto("transfers")
          .columns([...TRANSFER_COLUMNS, "decided_at", "outcome"])
          .expression((eb) =>
            eb.selectFrom(["valid_key", "decision", "answer"]).select(
              [
                ...transferSource(a, {
                  status: sql`CASE WHEN ${confirm} THEN 'CONFIRMED' ELSE 'RECEIVED' END::"TransferStatus"`,
                  response: sql`CASE WHEN ${confirm} THEN answer.confirmed ELSE ${a.response}::jsonb END`,
                  response_id: sql`CASE WHEN ${confirm} THEN ${a.confirmedResponseId}::text ELSE ${a.response_id}::text END`,
                }),
                sql`CASE WHEN ${confirm} THEN ${a.decidedAt}::timestamptz END`,
                sql`CASE WHEN ${confirm} THEN answer.confirmed END`,
              ].map((v, i) => v.as(`c${i}`)),
            ),
          )
          .onConflict((oc) => oc.doNothing())
          .returning(["id", "status"]),
      )
      .with("acquired", (db) =>
        db
          .selectFrom(auditChainAcquireCall(a.chains).as("a"))
          .select(["a.chain", "a.prev_hash"])
          .where(({ exists, selectFrom }) =>
            exists(selectFrom(["stored", "decision"]).select(sql.lit(1).as("one")).where(confirm)),
          ),
      )
      .selectFrom("locked")
      .innerJoin("decision", (join) => join.onTrue())
      .leftJoin("stored", (join) => join.onTrue())
      .leftJoin("policy", (join) => join.onTrue())
      .leftJoin("signals", (join) => join.onTrue())
      .leftJoin("bound", (join) => join.onTrue())
      .leftJoin("acquired", (join) => join.onTrue())
      .select([
        "locked.policy_locked",
        "stored.id",
        sql<boolean>`stored.status = 'CONFIRMED'`.as("confirmed"),
        "policy.store_id",
        "policy.version",
        "policy.enabled",
        "policy.allow_listed_allergies",
        "policy.hourly_cap",
        "policy.owner_name",
        "policy.owner_license",
        "policy.extra_schedules",
        "policy.rx_expiry_months",
        "policy.time_zone",
        "signals.rejected",
        "signals.duplicate",
        "bound.n as bound",
        "acquired.chain",
        "acquired.prev_hash",
      ])
  );
}

function auditChainAcquireCall(chains: number) {
  return sql<{ chain: number; prev_hash: string }>`audit_chain_acquire(${chains}::int)`;
}

const judgeKeyed = compiledStatement((a: JudgeArgs & KeyArgs) => judge(a, withValidKey));
const judgeUnkeyed = compiledStatement((a: JudgeArgs) => judge(a, null));

/** Statement 1 (see the top): with `key`, nothing is stored unless the key is still as intake found it. */
export function storeAndJudge(a: JudgeArgs, key: KeyArgs | null) {
  return key ? judgeKeyed({ ...a, ...key }) : judgeUnkeyed(a);
}

type ConfirmArgs = {
  transferId: string;
  storeId: string;
  version: number;
  decidedAt: Date;
  /** The CONFIRMED answer, JSON text. */
  response: string;
  responseId: string;
  ownerName: string;
  ownerLicense: string | null;
  bucket: Date;
} & { [K in keyof AuditRecordRow as `audit_${K}`]: AuditRecordRow[K] };

/**
 * The decision record, the hour's count and the audit record, in one statement's CTEs. The record's policy
 * version is read from the policy row as this statement sees it, after the policy's lock is held: null, and so
 * a not-null violation that fails the statement (isPolicyMoved), when the policy is no longer that version.
 */
function recordDecision(a: ConfirmArgs) {
  return sqlDb()
    .with("record", (db) =>
      db.insertInto("immediate_confirmations").values({
        transfer_id: a.transferId,
        store_id: a.storeId,
        policy_version: (eb) => eb.selectFrom(policyStill(a).as("still")).select("still.version"),
        owner_name: a.ownerName,
        owner_license: a.ownerLicense,
        confirmed_at: a.decidedAt,
      }),
    )
    .with("counted", (db) =>
      db
        .insertInto("immediate_confirm_counts")
        .values({
          store_id: a.storeId,
          bucket_start: a.bucket,
          shard: sql<number>`pg_backend_pid() % ${sql.lit(SHARDS)}`,
          n: 1,
        })
        .onConflict((oc) =>
          oc
            .columns(["store_id", "bucket_start", "shard"])
            .doUpdateSet({ n: sql<number>`immediate_confirm_counts.n + 1` }),
        ),
    )
    .with("audit", () =>
      insertAuditRecord({
        at: a.audit_at,
        userId: a.audit_userId,
        actor: a.audit_actor,
        action: a.audit_action,
        transferId: a.audit_transferId,
        clientAddress: a.audit_clientAddress,
        details: a.audit_details,
        prevHash: a.audit_prevHash,
        hash: a.audit_hash,
        hashAlg: a.audit_hashAlg,
        chain: a.audit_chain,
      }),
    );
}

/** The policy's row while it is still this version and on. */
function policyStill(a: { storeId: string; version: number }) {
  return sqlDb()
    .selectFrom("immediate_confirm_policies as p")
    .select("p.version")
    .where("p.store_id", "=", a.storeId)
    .where("p.version", "=", a.version)
    .where("p.enabled", "=", true);
}

const recordShape = compiledStatement((a: ConfirmArgs) => recordDecision(a).selectNoFrom(sql.lit(1).as("done")));

const confirmShape = compiledStatement((a: ConfirmArgs) =>
  recordDecision(a)
    .with("moved", (db) =>
      db
        .updateTable("transfers")
        .set({
          status: sql.lit("CONFIRMED"),
          decided_at: a.decidedAt,
          response: sql`${a.response}::jsonb`,
          response_id: a.responseId,
          outcome: sql`${a.response}::jsonb`,
        })
        .where("id", "=", a.transferId)
        .returning("id"),
    )
    .selectFrom("moved")
    .select("moved.id"),
);

function withAudit(args: Omit<ConfirmArgs, `audit_${string}`>, audit: AuditRecordRow): ConfirmArgs {
  return {
    ...args,
    audit_at: audit.at,
    audit_userId: audit.userId,
    audit_actor: audit.actor,
    audit_action: audit.action,
    audit_transferId: audit.transferId,
    audit_clientAddress: audit.clientAddress,
    audit_details: audit.details,
    audit_prevHash: audit.prevHash,
    audit_hash: audit.hash,
    audit_hashAlg: audit.hashAlg,
    audit_chain: audit.chain,
  };
}

/**
 * Statement 2 when statement 1 stored the transfer CONFIRMED: the decision record, the hour's count and the
 * audit record (its hash computed by the caller over the same values). It fails when the policy is no longer
 * this version (isPolicyMoved).
 */
export function recordConfirmation(args: Omit<ConfirmArgs, `audit_${string}`>, audit: AuditRecordRow) {
  return recordShape(withAudit(args, audit));
}

/** The same when the transfer was stored RECEIVED and qualifies after all (counted exactly near the cap): it moves to CONFIRMED. */
export function confirmImmediately(args: Omit<ConfirmArgs, `audit_${string}`>, audit: AuditRecordRow) {
  return confirmShape(withAudit(args, audit));
}

/** The error of statement 2 when the policy moved (recordDecision). */
export function isPolicyMoved(err: unknown): boolean {
  const e = err as { code?: unknown; table?: unknown; column?: unknown } | null;
  return e?.code === "23502" && e.table === "immediate_confirmations" && e.column === "policy_version";
}

const missShape = compiledStatement((a: { transferId: string; storeId: string; version: number; miss: string }) =>
  sqlDb()
    .updateTable("transfers")
    .set({ immediate_miss: a.miss })
    .where("id", "=", a.transferId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("immediate_confirm_policies as p")
          .select(sql.lit(1).as("one"))
          .where("p.store_id", "=", a.storeId)
          .where("p.version", "=", a.version)
          .where("p.enabled", "=", true),
      ),
    )
    .returning("id"),
);

/** Statement 2 when it does not qualify: why, for the queue, under the same guard (no row: the policy changed). */
export function recordMiss(a: { transferId: string; storeId: string; version: number; miss: string }) {
  return missShape(a);
}

/** The counts no bound reads any more (it reads from the bucket holding the hour's start). */
export function deleteCountsBefore(before: Date) {
  return sqlDb().deleteFrom("immediate_confirm_counts").where("bucket_start", "<", before);
}

/** Near the cap: one confirmation at a time per store, each counting what committed before it. */
export function lockStoreCap(storeId: string) {
  return sqlDb().selectNoFrom(
    sql<boolean>`pg_advisory_xact_lock(hashtextextended(${`immediate-cap:${storeId}`}::text, 0)) IS NULL`.as("locked"),
  );
}

/** This store's confirmations since `since`, counted no further than `cap`. */
export function countRecentConfirmations(storeId: string, since: Date, cap: number) {
  return sqlDb()
    .selectFrom((db) =>
      db
        .selectFrom("immediate_confirmations")
        .select(sql.lit(1).as("one"))
        .where("store_id", "=", storeId)
        .where("confirmed_at", ">", since)
        .limit(cap)
        .as("recent"),
    )
    .select(sql<number>`count(*)::int`.as("n"));
}

/** An audit chain's lock and the hash its record links to, when statement 1 did not take one. */
export function acquireAuditChain(chains: number) {
  return sqlDb().selectFrom(auditChainAcquireCall(chains).as("a")).select(["a.chain", "a.prev_hash"]);
}
