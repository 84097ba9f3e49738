// The audit log's statements (typed: lib/db/kysely.ts). The record's keyed hash is computed by the caller
// (record-audit-event.ts), so the key never reaches SQL.
import { sql, type RawBuilder } from "kysely";
import { compiledStatement } from "@/lib/db/compiled-statement";
import { sqlDb } from "@/lib/db/kysely";

/** A chain's lock taken and the hash its next record links to (audit_chain_acquire's row). */
export type AcquiredChain = { chain: number; prev_hash: string };

/**
 * The call that takes one of `chains` chains' lock and returns `chain, prev_hash`: the SQL function
 * audit_chain_acquire (migration 20261124120000_audit_chain_partitions, not in schema.prisma, so its row
 * type is written here, once). The record must then be inserted in the same transaction.
 */
export function auditChainAcquireCall(chains: number): RawBuilder<AcquiredChain> {
  return sql<AcquiredChain>`audit_chain_acquire(${chains}::int)`;
}

export function selectAcquiredChain(chains: number) {
  return sqlDb().selectFrom(auditChainAcquireCall(chains).as("a")).select(["a.chain", "a.prev_hash"]);
}

/** selectAcquiredChain compiled once (every audited action runs it). */
export const acquireChainStatement = compiledStatement((v: { chains: number }) => selectAcquiredChain(v.chains));

/** One audit_events row as written (the hash already computed over the same values). */
export type AuditRecordRow = {
  at: Date;
  userId: string | null;
  actor: string;
  action: string;
  transferId: string | null;
  clientAddress: string | null;
  /** JSON text, or null. */
  details: string | null;
  prevHash: string;
  hash: string;
  hashAlg: string;
  chain: number;
};

export function insertAuditRecord(r: AuditRecordRow) {
  return sqlDb().insertInto("audit_events").values(auditValues(r));
}

/** The same record, written only if `when` holds (a CTE of a statement that decides whether it happened). */
export function insertAuditRecordIf(r: AuditRecordRow, when: RawBuilder<boolean>) {
  const values = auditValues(r);
  const columns = Object.keys(values) as (keyof typeof values)[];
  return sqlDb()
    .insertInto("audit_events")
    .columns(columns)
    .expression(
      sqlDb()
        .selectNoFrom(columns.map((c) => sql`${values[c]}`.as(c)))
        .where(when),
    );
}

function auditValues(r: AuditRecordRow) {
  return {
    at: sql<Date>`${r.at}::timestamptz`,
    user_id: sql<string | null>`${r.userId}::text`,
    actor: sql<string>`${r.actor}::text`,
    action: sql<string>`${r.action}::text`,
    transfer_id: sql<string | null>`${r.transferId}::text`,
    client_address: sql<string | null>`${r.clientAddress}::text`,
    details: sql`${r.details}::jsonb`,
    prev_hash: sql<string>`${r.prevHash}::text`,
    hash: sql<string>`${r.hash}::text`,
    hash_alg: sql<string>`${r.hashAlg}::text`,
    chain: sql<number>`${r.chain}::smallint`,
  };
}

/** insertAuditRecord compiled once (every audited action runs it). */
export const insertAuditRecordStatement = compiledStatement((r: AuditRecordRow) => insertAuditRecord(r));

/** Every chain's last record (one index probe per chain, on the (chain, id) index), chains 0..maxChain. */
export function selectChainHeads(maxChain: number) {
  return sqlDb()
    .selectFrom(sql<{ c: number }>`generate_series(0, ${maxChain}::int)`.as("c"))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom("audit_events")
          .select(["audit_events.id", "audit_events.hash"])
          .whereRef("audit_events.chain", "=", "c.c")
          .orderBy("audit_events.id", "desc")
          .limit(sql.lit(1))
          .as("e"),
      (join) => join.onTrue(),
    )
    .select(["c.c as chain", "e.id", "e.hash"])
    .orderBy("c.c");
}

/** Every action recorded so far (a loose index scan over the (action, at) index). */
export function selectAuditActions() {
  return sqlDb()
    .withRecursive("a(action)", (db) =>
      db
        .selectFrom((eb) =>
          eb.selectFrom("audit_events").select("action").orderBy("action").limit(sql.lit(1)).as("first"),
        )
        // Nullable like the recursive step's subquery (null past the last action).
        .select((eb) => eb.ref("first.action").$castTo<string | null>().as("action"))
        .unionAll((db2) =>
          db2
            .selectFrom("a")
            .select((eb) =>
              eb
                .selectFrom("audit_events as e")
                .select("e.action")
                .whereRef("e.action", ">", "a.action")
                .orderBy("e.action")
                .limit(sql.lit(1))
                .as("action"),
            )
            .where("a.action", "is not", null),
        ),
    )
    .selectFrom("a")
    .select("a.action")
    .where("a.action", "is not", null);
}
