// The statements of a decision (decide-transfer.ts), each one round trip (Prisma's
// API would take a round trip per read and write, each with its per-statement cost and PostgreSQL's parse and plan).
//   1. lockForDecision: the transfer row locked, with everything the decision reads (the claim holder's
//      name, the store's rules, the pharmacist's licence, an earlier decision) and, when the transfer is
//      decidable, an audit chain's lock and the hash the record links to;
//   2. writeDecision: the decision row, the transfer's new state, the callback and its job (the
//      transactional outbox), the audit record and, for an approval, the integration feed entry.
// Typed with Kysely (lib/db/kysely.ts); the values are parameters, never spliced into the text. Both run in
// a pool transaction (lib/db/pool-transaction.ts), prepared once per connection, with the same shape and
// round trips as when they were hand-written.
import { sql } from "kysely";
import { auditRecordRow, type AuditEventInput } from "@/lib/audit/record-audit-event";
import { auditChainAcquireCall, insertAuditRecord, type AcquiredChain, type AuditRecordRow } from "@/lib/audit/sql";
import { deliveryJobSql } from "@/lib/callbacks/job-queue";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb, type RowOf } from "@/lib/db/kysely";
import { env } from "@/lib/env";
import { insertFeedEntry } from "@/lib/integration/sql";

/**
 * Why the chain's lock is taken in this statement and after the row lock: the row lock comes first
 * everywhere (claims, decisions), then the chain's, so no two transactions wait on each other's. The
 * EXISTS over `locked` is a one-time filter evaluated before audit_chain_acquire is called, so the chain is
 * only taken once the row is ours and decidable; a refusal found later (the drug review) rolls it back.
 * An earlier decision (d.*) is for the "already approved by X at T" answer; the store's columns are null
 * when the store has no row (the federal defaults apply).
 */
export function lockForDecision(transferId: string, actorId: string) {
  return lockStatement({ transferId, actorId, chains: env().AUDIT_CHAINS });
}

// Built and compiled once (lib/db/compiled-statement.ts): every approval runs it.
const lockStatement = compiledStatement(
  ({ transferId, actorId, chains }: { transferId: string; actorId: string; chains: number }) => {
    const db = sqlDb();
    return db
      .with("locked", (q) =>
        q
          .selectFrom("transfers as t")
          .select((eb) => [
            "t.id",
            "t.partner_id",
            eb.cast<string>("t.status", "text").as("status"),
            "t.request",
            "t.claimed_by_id",
            "t.claim_expires_at",
            "t.receiving_npi",
            eb
              .and([eb("t.claim_expires_at", "is not", null), eb("t.claim_expires_at", ">", sql<Date>`now()`)])
              .$castTo<boolean>()
              .as("claim_live"),
          ])
          .where("t.id", "=", transferId)
          .forUpdate(),
      )
      .with("acquired", (q) =>
        q
          .selectFrom(auditChainAcquireCall(chains).as("a"))
          .select(["a.chain", "a.prev_hash"])
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom("locked as l")
                .select(sql`1`.as("one"))
                .where("l.status", "=", sql.lit("RECEIVED"))
                .where((eb) =>
                  eb.not(eb.and([eb.ref("l.claim_live"), eb("l.claimed_by_id", "is distinct from", actorId)])),
                ),
            ),
          ),
      )
      .selectFrom("locked as l")
      .leftJoin("users as holder", "holder.id", "l.claimed_by_id")
      .leftJoin("stores as s", "s.npi", "l.receiving_npi")
      .leftJoin("users as me", (join) => join.on("me.id", "=", actorId))
      .leftJoin("transfer_decisions as d", "d.transfer_id", "l.id")
      .leftJoin("acquired as a", (join) => join.onTrue())
      .select((eb) => [
        "l.id",
        "l.partner_id",
        "l.status",
        "l.request",
        "l.claimed_by_id",
        "l.claim_expires_at",
        "l.claim_live",
        "holder.name as claimed_by_name",
        "s.extra_schedules",
        "s.rx_expiry_months",
        "s.time_zone",
        "me.license_number as actor_license",
        eb.cast<"APPROVED" | "REJECTED" | null>("d.decision", "text").as("decided"),
        "d.pharmacist_name as decided_by",
        "d.decided_at",
        "a.chain",
        "a.prev_hash",
      ]);
  },
);

export type LockedTransfer = RowOf<ReturnType<typeof lockForDecision>>;

export type DecisionWrite = {
  transferId: string;
  partnerId: string;
  outcome: "APPROVED" | "REJECTED";
  at: Date;
  actor: { id: string; name: string; license: string | null };
  /** The TransferResponse owed to the sender: the decision's, the transfer's outcome and the callback's payload. */
  responseJson: string;
  callbackId: string;
  errorType: string | null;
  description: string | null;
  drugSchedule: string | null;
  scheduleBasis: string | null;
  oneTimeTransferConfirmed: boolean | null;
  allergyWarningsJson: string | null;
  legalExpiry: Date | null;
  note: string | null;
  localRxNumber: string | null;
  audit: AuditEventInput;
  chain: AcquiredChain;
};

/**
 * One statement. The decision's primary key refuses a second decision (the caller turns that into "already
 * decided"). The job is scheduleDelivery's own call (deliveryJobSql, lib/callbacks/job-queue.ts): keyed by
 * the callback id, to run now. Data-modifying CTEs the main query does not read run after
 * it, in order. An approval's feed entry is queued unnumbered: it takes no lock (lib/integration/feed-entries.ts).
 * A rejected prescription may be sent again: its active_rx_key is freed (receive-transfer.ts keys live
 * transfers on it).
 */
export function writeDecision(w: DecisionWrite) {
  const values = { ...w, auditRow: auditRecordRow(w.audit, w.chain) };
  return w.outcome === "REJECTED" ? writeRejection(values) : writeApproval(values);
}

// One shape each (lib/db/compiled-statement.ts): a rejection frees the prescription's key, an approval feeds.
const writeApproval = compiledStatement((w: DecisionValues) => buildDecisionWrite(w, false));
const writeRejection = compiledStatement((w: DecisionValues) => buildDecisionWrite(w, true));

type DecisionValues = DecisionWrite & { auditRow: AuditRecordRow };

function buildDecisionWrite(w: DecisionValues, rejected: boolean) {
  const jsonb = (text: string | null) => sql<unknown>`${text}::jsonb`;
  const at = sql<Date>`${w.at}::timestamptz`;
  const written = sqlDb()
    .with("decision", (q) =>
      q.insertInto("transfer_decisions").values({
        transfer_id: w.transferId,
        decision: sql`${w.outcome}::"Decision"`,
        user_id: w.actor.id,
        pharmacist_name: w.actor.name,
        decided_at: at,
        error_type: w.errorType,
        description: w.description,
        drug_schedule: w.drugSchedule,
        schedule_basis: w.scheduleBasis,
        one_time_transfer_confirmed: sql`${w.oneTimeTransferConfirmed}::boolean`,
        allergy_warnings: jsonb(w.allergyWarningsJson),
        legal_expiry: sql`${w.legalExpiry}::timestamptz`,
        pharmacist_license: w.actor.license,
        note: w.note,
        local_rx_number: w.localRxNumber,
        response: jsonb(w.responseJson),
      }),
    )
    .with("moved", (q) =>
      q
        .updateTable("transfers")
        .set({
          status: sql`${rejected ? "REJECTED" : "CONFIRMED"}::"TransferStatus"`,
          decided_at: at,
          outcome: jsonb(w.responseJson),
          claimed_by_id: null,
          claim_expires_at: null,
          ...(rejected ? { active_rx_key: null } : {}),
        })
        .where("id", "=", w.transferId),
    )
    .with("callback", (q) =>
      q.insertInto("callbacks").values({
        id: w.callbackId,
        transfer_id: w.transferId,
        partner_id: w.partnerId,
        payload: jsonb(w.responseJson),
        status: "PENDING",
        // The database's clock, as its job's run_at is: the claim compares it with clock_timestamp(), and a time
        // from an app server whose clock runs ahead would put the first attempt to sleep until then.
        next_attempt_at: sql<Date>`now()`,
      }),
    )
    .with("audit", () => insertAuditRecord(w.auditRow));
  const withFeed = rejected
    ? written
    : written.with("feed", () => insertFeedEntry({ transferId: w.transferId, approvedAt: w.at }));
  return withFeed.selectFrom(deliveryJobSql(w.callbackId, null).as("job")).select(sql<number>`1`.as("queued"));
}

/** The decision that won, read in a new snapshot (inside the transaction, or after it). */
export function selectDecision(transferId: string) {
  return sqlDb()
    .selectFrom("transfer_decisions")
    .select((eb) => [
      eb.cast<"APPROVED" | "REJECTED">("decision", "text").as("decision"),
      "pharmacist_name",
      "decided_at",
    ])
    .where("transfer_id", "=", transferId);
}
