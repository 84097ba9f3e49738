// The audit log (HIPAA audit controls): every view, search, claim and decision, and every admin action,
// appended with a hash chained to the previous record so that an altered or removed record is detected.
import { createHash } from "node:crypto";
import type { Prisma } from "@/generated/prisma/client";
import { canonicalJson } from "@/lib/canonical-json";
import { db } from "@/lib/db/prisma";

export const GENESIS_HASH = "0".repeat(64);

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

/** The content a record's hash covers, in a fixed order. */
export function auditHash(prevHash: string, e: { at: Date; userId: string | null; actor: string; action: string; transferId: string | null; clientAddress: string | null; details: unknown }): string {
  // Canonical JSON: the details come back from jsonb with their keys in another order.
  const content = canonicalJson([prevHash, e.at.toISOString(), e.userId, e.actor, e.action, e.transferId, e.clientAddress, e.details ?? null]);
  return createHash("sha256").update(content).digest("hex");
}

async function append(tx: Db, input: AuditEventInput): Promise<void> {
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
    data: { ...event, details: event.details ?? undefined, prevHash, hash: auditHash(prevHash, event) },
  });
}

/**
 * Appends inside the caller's transaction when given one (so the record commits or rolls back with what
 * it describes), else in a transaction of its own.
 */
export async function recordAuditEvent(input: AuditEventInput, tx?: Db): Promise<void> {
  if (tx) return append(tx, input);
  await db().$transaction((t) => append(t, input));
}
