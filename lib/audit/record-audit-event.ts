// The audit log (HIPAA audit controls): every view, search, claim and decision, and every admin action,
// appended with a keyed hash chained to the previous record (lib/audit/audit-hash.ts) so that an altered,
// removed or reordered record is detected, even by someone who holds the database but not AUDIT_HMAC_KEY.
import type { Prisma } from "@/generated/prisma/client";
import { auditKey, GENESIS_HASH, keyedAuditHash } from "@/lib/audit/audit-hash";
import { db } from "@/lib/db/prisma";

export { GENESIS_HASH } from "@/lib/audit/audit-hash";

export type AuditEventInput = {
  userId: string | null;
  /** Who acted, as people read it: the user's email, "cli" or "system". */
  actor: string;
  /** dotted verb, e.g. `transfer.viewed`, `transfer.approved`, `queue.searched`, `partner.created` */
  action: string;
  transferId?: string | null;
  clientAddress?: string | null;
  /** Context without patient data: ids, filters, field names. */
  details?: Prisma.InputJsonValue | null;
};

type Db = Prisma.TransactionClient;

async function append(tx: Db, input: AuditEventInput): Promise<void> {
  const key = auditKey(); // before the lock: a missing key fails without waiting for anyone
  // One writer at a time (per database) so that each record chains to the one before it.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(7324001)`;
  const last = await tx.auditEvent.findFirst({ orderBy: { id: "desc" }, select: { hash: true } });
  const prevHash = last?.hash ?? GENESIS_HASH;
  const event = {
    at: new Date(),
    userId: input.userId,
    actor: input.actor,
    action: input.action,
    transferId: input.transferId ?? null,
    clientAddress: input.clientAddress ?? null,
    details: input.details ?? null,
  };
  await tx.auditEvent.create({
    data: { ...event, details: event.details ?? undefined, prevHash, hashAlg: key.alg, hash: keyedAuditHash(key, prevHash, event) },
  });
}

/**
 * Appends inside the caller's transaction when given one (so the record commits or rolls back with what
 * it describes), else in a transaction of its own. Admin operations always pass theirs.
 */
export async function recordAuditEvent(input: AuditEventInput, tx?: Db): Promise<void> {
  if (tx) return append(tx, input);
  await db().$transaction((t) => append(t, input));
}
