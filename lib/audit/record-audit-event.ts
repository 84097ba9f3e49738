// The audit log (HIPAA audit controls): every view, search, claim and decision, and every admin action,
// appended with a keyed hash chained to the previous record (lib/audit/audit-hash.ts) so that an altered,
// removed or reordered record is detected, even by someone who holds the database but not AUDIT_HMAC_KEY.
//
// Why several chains: with one chain every audited action waited, behind one advisory lock, for
// the one before it to commit, so approvals (and every other audited action) ran one at a time. A record
// now links to the last record of one of AUDIT_CHAINS (8) chains, each with its own lock. Each chain is as
// tamper-evident as the single one was: the hash covers the chain's number, so a record cannot move
// between chains, and within a chain an edit, a removal, an insertion or a reordering breaks a link. What
// one chain cannot show by itself, the loss of its tail, the set of all chains' heads shows: the server
// logs it (audit-head-log.ts) and `audit verify --head` checks every head in it. Order across chains is
// not part of the chain, as it was never meaningful for transactions that ran at the same time.
import type { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/lib/audit/actor";
import { auditKey, chainedAuditHash, type HashedContent } from "@/lib/audit/audit-hash";
import {
  acquireChainStatement,
  auditChainAcquireCall,
  insertAuditRecord,
  insertAuditRecordStatement,
  type AcquiredChain,
  type AuditRecordRow,
} from "@/lib/audit/sql";
import { inPrismaTx } from "@/lib/db/kysely";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";

export type { AcquiredChain } from "@/lib/audit/sql";

export { GENESIS_HASH } from "@/lib/audit/audit-hash";

export type AuditEventInput = {
  /** Who acted and from where (lib/audit/actor.ts): the record's user_id, actor and client_address. */
  actor: Actor;
  /** dotted verb, e.g. `transfer.viewed`, `transfer.approved`, `queue.searched`, `partner.created` */
  action: string;
  transferId?: string | null;
  /** Context without patient data: ids, filters, field names. */
  details?: Prisma.InputJsonValue | null;
};

type Db = Prisma.TransactionClient;

/**
 * The SQL call that takes one chain's lock and returns `chain, prev_hash` (the SQL function
 * audit_chain_acquire, migration 20261124120000_audit_chain_partitions): for statements that do more in the
 * same round trip (decide-transfer.ts). The record must then be inserted, with auditInsertSql, in the same
 * transaction: the lock is what makes prev_hash the chain's last record.
 */
export function auditChainAcquireSql() {
  return auditChainAcquireCall(env().AUDIT_CHAINS);
}

/** The INSERT of one record linked to `acquired`, its keyed hash computed here (the key never goes to SQL). */
export function auditInsertSql(input: AuditEventInput, acquired: AcquiredChain) {
  return insertAuditRecord(auditRecordRow(input, acquired));
}

/** auditInsertSql as a statement compiled once, for a transaction that runs it on its own. */
export function auditInsertStatement(input: AuditEventInput, acquired: AcquiredChain) {
  return insertAuditRecordStatement(auditRecordRow(input, acquired));
}

/** The record's row as written: linked to `acquired`, its keyed hash computed here (the key never goes to SQL). */
export function auditRecordRow(input: AuditEventInput, acquired: AcquiredChain): AuditRecordRow {
  const key = auditKey();
  const event: HashedContent = {
    at: new Date(),
    userId: input.actor.userId,
    actor: input.actor.label,
    action: input.action,
    transferId: input.transferId ?? null,
    clientAddress: input.actor.clientAddress ?? null,
    details: input.details ?? null,
  };
  const { chain, prev_hash: prevHash } = acquired;
  const hash = chainedAuditHash(key, chain, prevHash, event);
  const details = event.details === null ? null : JSON.stringify(event.details);
  return {
    at: event.at,
    userId: event.userId,
    actor: event.actor,
    action: event.action,
    transferId: event.transferId,
    clientAddress: event.clientAddress,
    details,
    prevHash,
    hash,
    hashAlg: key.chainsAlg,
    chain,
  };
}

async function append(tx: Db, input: AuditEventInput): Promise<void> {
  auditKey(); // before the lock: a missing key fails without waiting for anyone
  // One writer at a time per chain: the first free chain's lock, and the hash to link to, in one round trip.
  const [acquired] = await inPrismaTx(tx, acquireChainStatement({ chains: env().AUDIT_CHAINS }));
  await inPrismaTx(tx, auditInsertStatement(input, acquired!));
}

/**
 * Appends inside the caller's transaction when given one (so the record commits or rolls back with what
 * it describes), else in a transaction of its own. Admin operations always pass theirs.
 */
export async function recordAuditEvent(input: AuditEventInput, tx?: Db): Promise<void> {
  if (tx) return append(tx, input);
  await db().$transaction((t) => append(t, input));
}
