// Renames a sending partner or changes the pharmacy NPIs it may send from; audited.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { isValidNpi } from "@/lib/interface";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockPartnerRow } from "@/lib/partners/sql";

export type PartnerProfileChange = { name?: string; npis?: string[] };
export type UpdatePartnerProfileOptions = { partnerId: string; change: PartnerProfileChange; actor: Actor };

export async function updatePartnerProfile({
  partnerId,
  change,
  actor,
}: UpdatePartnerProfileOptions): Promise<{ name: string; npis: string[] }> {
  const data: { name?: string; npis?: string[] } = {};
  if (change.name !== undefined) {
    const name = change.name.trim();
    if (!name || name.length > 200) throw new DomainError("invalid_input", "partner name must be 1-200 characters");
    data.name = name;
  }
  if (change.npis !== undefined) {
    const npis = [...new Set(change.npis.map((n) => n.trim()))];
    const bad = npis.find((n) => !isValidNpi(n));
    if (bad !== undefined)
      throw new DomainError("invalid_input", `NPI ${bad} is not a valid NPI (10 digits with a valid check digit)`);
    data.npis = npis;
  }
  if (data.name === undefined && data.npis === undefined)
    throw new DomainError("invalid_input", "nothing to change: give a name or NPIs");
  // The change and its audit record commit together; the row is locked so that "from" is what it replaced.
  const updated = await db().$transaction(async (tx) => {
    const [locked] = await inPrismaTx(tx, lockPartnerRow(partnerId));
    if (!locked) throw new DomainError("not_found", `no partner ${partnerId}`);
    const updated = await tx.partner.update({ where: { id: partnerId }, data, select: { name: true, npis: true } });
    const details: Record<string, string | string[]> = { partnerId };
    if (data.name !== undefined && data.name !== locked.name) details.name = data.name;
    if (data.npis !== undefined) details.npis = data.npis;
    await recordAuditEvent(
      {
        actor,
        action: "partner.updated",
        details,
      },
      tx,
    );
    return updated;
  });
  return updated;
}
