// Intake under a store's policy in one autocommit statement (confirm-in-one-statement.ts): the policy and rules
// as the statement's snapshot sees them, compared with the cached ones the request was judged by; the
// database's signals; the hour's bound; and, when all allow it, the transfer stored CONFIRMED with its decision
// record, the hour's count and the audit record, linked to the head of the connection's own chain
// (lib/audit/owned-chain.ts). A transfer that does not qualify is stored RECEIVED with the reason the queue
// shows. Nothing is stored, and the verdict says why, when the cached facts are not the ones in force
// ("moved"), near the hourly cap ("near_cap": counted exactly the long way) or when the chain's head is not the
// one the record was hashed against ("head").
import { sql } from "kysely";
import { ownedHeadMatches } from "@/lib/audit/owned-chain";
import { insertAuditRecordIf, type AuditRecordRow } from "@/lib/audit/sql";
import { sqlDb } from "@/lib/db/kysely";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { CAP_MARGIN, countConfirmation } from "@/lib/immediate-confirm/queries/cap-count";
import { policyFacts } from "@/lib/immediate-confirm/queries/policy";
import { signalsOf } from "@/lib/immediate-confirm/queries/store-and-judge";
import {
  TRANSFER_COLUMNS,
  transferSource,
  withValidKey,
  type KeyArgs,
  type TransferInsert,
} from "@/lib/transfers/queries/intake";

/** What the statement did: stored (confirmed or with a reason), or nothing and why. */
export type Verdict = "confirm" | "miss" | "rejected" | "duplicate" | "moved" | "near_cap" | "head";

/**
 * The statement's values, nested rather than merged into one object (see lib/db/compiled-statement.ts): the row,
 * the key it is stored under (or null), the audit record, and the facts below.
 */
export type ConfirmInOneArgs = {
  row: TransferInsert;
  key: KeyArgs | null;
  audit: AuditRecordRow;
  npi: string;
  /** The cached facts the request was judged by: the statement stores nothing unless they are in force. */
  storeId: string;
  version: number;
  allowListedAllergies: boolean;
  hourlyCap: number;
  ownerName: string | null;
  ownerLicense: string | null;
  /** JSON text */
  extraSchedules: string;
  rxExpiryMonths: number;
  timeZone: string;
  /** Why the request itself does not qualify under those facts, or null. */
  ownMiss: string | null;
  rejectedMiss: string;
  duplicateMiss: string;
  duplicateDays: number;
  /** The first bucket the bound reads: bucketStart(an hour ago). */
  boundSince: Date;
  bucket: Date;
  /** The CONFIRMED answer, JSON text, and its id and time. */
  confirmedResponse: string;
  confirmedResponseId: string;
  decidedAt: Date;
};

function confirmInOne(a: ConfirmInOneArgs, keyed: boolean) {
  // The keyed shape is compiled only for values with a key.
  const start = keyed
    ? withValidKey(a.key!)
    : sqlDb().with("valid_key", (db) => db.selectNoFrom(sql<string>`'-'::text`.as("id")));
  const confirmed = sql<boolean>`stored.status = 'CONFIRMED'`;
  const anyConfirmed = sql<boolean>`EXISTS (SELECT 1 FROM stored WHERE ${confirmed})`;
  return (
    start
      .with("policy", () => policyFacts(sqlDb()).where("s.npi", "=", a.npi))
      .with("facts", (db) =>
        db.selectNoFrom(({ exists, selectFrom }) =>
          exists(
            selectFrom("policy")
              .select(sql.lit(1).as("one"))
              .where("policy.store_id", "=", a.storeId)
              .where("policy.version", "=", sql<number>`${a.version}::int`)
              .where("policy.enabled", "=", true)
              .where("policy.allow_listed_allergies", "=", sql<boolean>`${a.allowListedAllergies}::boolean`)
              .where("policy.hourly_cap", "=", sql<number>`${a.hourlyCap}::int`)
              .where(sql<boolean>`policy.owner_name IS NOT DISTINCT FROM ${a.ownerName}::text`)
              .where(sql<boolean>`policy.owner_license IS NOT DISTINCT FROM ${a.ownerLicense}::text`)
              .where(sql<boolean>`policy.extra_schedules = ${a.extraSchedules}::jsonb`)
              .where("policy.rx_expiry_months", "=", sql<number>`${a.rxExpiryMonths}::int`)
              .where("policy.time_zone", "=", sql<string>`${a.timeZone}::text`),
          ).as("in_force"),
        ),
      )
      .with("signals", () => signalsOf(a.row, a.duplicateDays))
      .with("bound", (db) =>
        db
          .selectFrom("immediate_confirm_counts as c")
          .where("c.store_id", "=", a.storeId)
          .where("c.bucket_start", ">=", a.boundSince)
          .select(sql<number>`coalesce(sum(c.n), 0)::int`.as("n")),
      )
      // In whyNot's order (confirm-at-intake.ts): the request's own reason, then the database's, then the cap.
      .with("verdict", (db) =>
        db.selectFrom(["facts", "signals", "bound"]).select(
          sql<Verdict>`CASE
            WHEN NOT facts.in_force THEN 'moved'
            WHEN ${a.ownMiss}::text IS NOT NULL THEN 'miss'
            WHEN signals.rejected THEN 'rejected'
            WHEN signals.duplicate THEN 'duplicate'
            WHEN bound.n + ${sql.lit(CAP_MARGIN)} >= ${a.hourlyCap}::int THEN 'near_cap'
            WHEN NOT ${ownedHeadMatches(a.audit.chain, a.audit.prevHash)} THEN 'head'
            ELSE 'confirm' END`.as("v"),
        ),
      )
      .with("stored", (db) =>
        db
          .insertInto("transfers")
          .columns([...TRANSFER_COLUMNS, "decided_at", "immediate_miss"])
          .expression((eb) =>
            eb
              .selectFrom(["valid_key", "verdict"])
              .select(
                [
                  ...transferSource(a.row, {
                    status: sql`CASE WHEN verdict.v = 'confirm' THEN 'CONFIRMED' ELSE 'RECEIVED' END::"TransferStatus"`,
                    response: sql`CASE WHEN verdict.v = 'confirm' THEN ${a.confirmedResponse}::jsonb ELSE ${a.row.response}::jsonb END`,
                    response_id: sql`CASE WHEN verdict.v = 'confirm' THEN ${a.confirmedResponseId}::text ELSE ${a.row.response_id}::text END`,
                  }),
                  sql`CASE WHEN verdict.v = 'confirm' THEN ${a.decidedAt}::timestamptz END`,
                  sql`CASE verdict.v WHEN 'miss' THEN ${a.ownMiss}::text WHEN 'rejected' THEN ${a.rejectedMiss}::text WHEN 'duplicate' THEN ${a.duplicateMiss}::text END`,
                ].map((v, i) => v.as(`c${i}`)),
              )
              .where(sql<boolean>`verdict.v IN ('confirm', 'miss', 'rejected', 'duplicate')`),
          )
          .onConflict((oc) => oc.doNothing())
          .returning(["id", "status"]),
      )
      .with("record", (db) =>
        db
          .insertInto("immediate_confirmations")
          .columns(["transfer_id", "store_id", "policy_version", "owner_name", "owner_license", "confirmed_at"])
          .expression((eb) =>
            eb
              .selectFrom("stored")
              .select([
                "stored.id",
                sql<string>`${a.storeId}::text`.as("store_id"),
                sql<number>`${a.version}::int`.as("policy_version"),
                sql<string>`${a.ownerName}::text`.as("owner_name"),
                sql<string>`${a.ownerLicense}::text`.as("owner_license"),
                sql<Date>`${a.decidedAt}::timestamptz`.as("confirmed_at"),
              ])
              .where(confirmed),
          ),
      )
      .with("counted", () => countConfirmation(a.storeId, a.bucket, anyConfirmed))
      .with("audit", () => insertAuditRecordIf(a.audit, anyConfirmed))
      .selectFrom("verdict")
      .leftJoin("stored", (join) => join.onTrue())
      .select(["verdict.v", "stored.id", sql<boolean>`coalesce(${confirmed}, false)`.as("confirmed")])
  );
}

const keyedShape = compiledStatement((a: ConfirmInOneArgs) => confirmInOne(a, true));
const unkeyedShape = compiledStatement((a: ConfirmInOneArgs) => confirmInOne(a, false));

/** The statement (see the top): with a key, nothing is stored unless the key is still as intake found it. */
export function storeAndConfirmInOne(a: ConfirmInOneArgs) {
  return a.key ? keyedShape(a) : unkeyedShape(a);
}
