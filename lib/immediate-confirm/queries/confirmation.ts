// Intake's second statement under a store's policy (confirm-at-intake.ts), each shape compiled once: the
// decision written under the policy's version, which this later statement reads after the policy's lock is
// held, so a policy changed meanwhile fails it and intake starts again. A confirmation writes the decision
// record, the hour's count (queries/cap-count.ts) and the audit record; a transfer that does not qualify gets the
// reason the queue shows.
import { sql } from "kysely";
import { insertAuditRecord, type AuditRecordRow } from "@/lib/audit/sql";
import { sqlDb } from "@/lib/db/kysely";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { countConfirmation } from "@/lib/immediate-confirm/queries/cap-count";

type DecisionArgs = {
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
};

/** A shape's values: the decision's and the audit record's, nested (lib/db/compiled-statement.ts). */
type ConfirmArgs = { decision: DecisionArgs; audit: AuditRecordRow };

/**
 * The decision record, the hour's count and the audit record, in one statement's CTEs. The record's policy
 * version is read from the policy row as this statement sees it, after the policy's lock is held: null, and so
 * a not-null violation that fails the statement (isPolicyMoved), when the policy is no longer that version.
 */
function recordDecision({ decision: a, audit }: ConfirmArgs) {
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
    .with("counted", () => countConfirmation(a.storeId, a.bucket))
    .with("audit", () => insertAuditRecord(audit));
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
          decided_at: a.decision.decidedAt,
          response: sql`${a.decision.response}::jsonb`,
          response_id: a.decision.responseId,
        })
        .where("id", "=", a.decision.transferId)
        .returning("id"),
    )
    .selectFrom("moved")
    .select("moved.id"),
);

/**
 * Statement 2 when statement 1 stored the transfer CONFIRMED: the decision record, the hour's count and the
 * audit record (its hash computed by the caller over the same values). It fails when the policy is no longer
 * this version (isPolicyMoved).
 */
export function recordConfirmation(decision: DecisionArgs, audit: AuditRecordRow) {
  return recordShape({ decision, audit });
}

/** The same when the transfer was stored RECEIVED and qualifies after all (counted exactly near the cap): it moves to CONFIRMED. */
export function confirmImmediately(decision: DecisionArgs, audit: AuditRecordRow) {
  return confirmShape({ decision, audit });
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

const missUnguardedShape = compiledStatement((a: { transferId: string; miss: string }) =>
  sqlDb().updateTable("transfers").set({ immediate_miss: a.miss }).where("id", "=", a.transferId).returning("id"),
);

/** Why not, with no version to hold it to: the policy moved under every judgment (confirm-at-intake.ts). */
export function recordMissUnguarded(a: { transferId: string; miss: string }) {
  return missUnguardedShape(a);
}
