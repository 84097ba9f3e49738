// Intake's first statement under a store's policy (confirm-at-intake.ts), built and compiled once
// (lib/db/compiled-statement.ts) and prepared once per connection (lib/db/pool-transaction.ts): the policy's
// shared lock, the policy and the store's rules as they are, the database's signals (an earlier rejection,
// duplicate therapy), an upper bound of the last hour's confirmations (queries/cap-count.ts), the transfer stored
// (CONFIRMED when all of that allows it; with the API key checked in the same statement when intake trusts
// one) and, when confirmed, an audit chain's lock and the hash its record links to.
import { sql } from "kysely";
import { auditChainAcquireCall } from "@/lib/audit/sql";
import { sqlDb } from "@/lib/db/kysely";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { CAP_MARGIN } from "@/lib/immediate-confirm/queries/cap-count";
import { policyFacts } from "@/lib/immediate-confirm/queries/policy";
import {
  TRANSFER_COLUMNS,
  transferSource,
  withValidKey,
  type KeyArgs,
  type TransferInsert,
} from "@/lib/transfers/queries/intake";

/**
 * The statement's values, nested (lib/db/compiled-statement.ts): the row, the key it is stored under (or null),
 * and the rest.
 */
type JudgeArgs = {
  row: TransferInsert;
  key: KeyArgs | null;
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

/** The transfer's own values the database's signals are read by. */
export type SignalArgs = Pick<
  TransferInsert,
  | "partner_id"
  | "sending_npi"
  | "rx_number"
  | "patient_last_name"
  | "patient_first_name"
  | "patient_dob"
  | "drug_substance_key"
  | "received_at"
>;

/**
 * The database's signals, one row: an earlier rejection of the same prescription from this sender, and
 * another transfer of the same drug for the same patient in the last duplicateDays. The patient's name key is
 * the trigger's (migration 20261124130000_patient_history), computed by the same SQL function.
 */
export function signalsOf(a: SignalArgs, duplicateDays: number) {
  return sqlDb().selectNoFrom(({ exists, selectFrom }) => [
    exists(
      selectFrom("transfers as h")
        .select(sql.lit(1).as("one"))
        .where("h.partner_id", "=", a.partner_id)
        .where("h.sending_npi", "=", a.sending_npi)
        .where("h.rx_number", "=", a.rx_number)
        .where("h.status", "=", sql.lit("REJECTED" as const)),
    ).as("rejected"),
    exists(
      selectFrom("transfers as h")
        .select(sql.lit(1).as("one"))
        .where("h.status", "in", [sql.lit("RECEIVED" as const), sql.lit("CONFIRMED" as const)])
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
          sql<Date>`${a.received_at}::timestamptz - make_interval(days => ${duplicateDays}::int)`,
        ),
    ).as("duplicate"),
  ]);
}

/**
 * The database's part of the judgment is read before the row is written, from the request's own values (the
 * new row is not visible to its own statement anyway), so that a transfer that qualifies is stored CONFIRMED
 * at once: no second version of the row.
 */
function judge(a: JudgeArgs, keyed: boolean) {
  // The keyed shape is compiled only for values with a key.
  const start = keyed
    ? withValidKey(a.key!)
    : sqlDb().with("valid_key", (db) => db.selectNoFrom(sql<string>`'-'::text`.as("id")));
  const confirm = sql<boolean>`decision.confirm`;
  return start
    .with("locked", (db) =>
      db.selectNoFrom(
        sql<boolean>`pg_advisory_xact_lock_shared(hashtextextended(${a.policyLockKey}::text, 0)) IS NULL`.as(
          "policy_locked",
        ),
      ),
    )
    .with("policy", () => policyFacts(sqlDb()).where("s.npi", "=", a.npi))
    .with("signals", () => signalsOf(a.row, a.duplicateDays))
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
    .with("stored", (db) =>
      db
        .insertInto("transfers")
        .columns([...TRANSFER_COLUMNS, "decided_at"])
        .expression((eb) =>
          eb.selectFrom(["valid_key", "decision"]).select(
            [
              ...transferSource(a.row, {
                status: sql`CASE WHEN ${confirm} THEN 'CONFIRMED' ELSE 'RECEIVED' END::"TransferStatus"`,
                response: sql`CASE WHEN ${confirm} THEN ${a.confirmedResponse}::jsonb ELSE ${a.row.response}::jsonb END`,
                response_id: sql`CASE WHEN ${confirm} THEN ${a.confirmedResponseId}::text ELSE ${a.row.response_id}::text END`,
              }),
              sql`CASE WHEN ${confirm} THEN ${a.decidedAt}::timestamptz END`,
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
    ]);
}

const judgeKeyed = compiledStatement((a: JudgeArgs) => judge(a, true));
const judgeUnkeyed = compiledStatement((a: JudgeArgs) => judge(a, false));

/** Statement 1 (see the top): with a key, nothing is stored unless the key is still as intake found it. */
export function storeAndJudge(a: JudgeArgs) {
  return a.key ? judgeKeyed(a) : judgeUnkeyed(a);
}
