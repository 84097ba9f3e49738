// What every change to a partner does first and last: lock the row (so that the change and its audit
// record describe the same row) and write the audit record in the same transaction, or neither happens.
import type { Prisma } from "@/generated/prisma/client";
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockPartnerRow } from "@/lib/partners/sql";

type Tx = Prisma.TransactionClient;

/** The partner, locked for the change. */
export async function lockPartner(tx: Tx, partnerId: string) {
  const [locked] = await inPrismaTx(tx, lockPartnerRow(partnerId));
  if (!locked) throw new DomainError("not_found", `no partner ${partnerId}`);
  return tx.partner.findUniqueOrThrow({ where: { id: partnerId } });
}

/** The change's audit record, naming the partner; written with `tx`, so it commits with the change. */
export function auditPartnerChange(
  tx: Tx,
  actor: Actor,
  action: string,
  partnerId: string,
  details: Record<string, string | number | boolean | null> = {},
) {
  return recordAuditEvent(
    {
      actor,
      action,
      details: { partnerId, ...details },
    },
    tx,
  );
}

export async function assertPartnerExists(partnerId: string): Promise<void> {
  const found = await db().partner.findUnique({ where: { id: partnerId }, select: { id: true } });
  if (!found) throw new DomainError("not_found", `no partner ${partnerId}`);
}
