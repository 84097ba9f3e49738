// A pharmacist's concern about a transfer that was CONFIRMED automatically: a note on the record (audited),
// and the sender's contact to call. It stays unverified, so it is still not released to dispensing.
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { z } from "zod";

export const ConcernInputSchema = z.object({ note: z.string().trim().min(1, "say what the concern is").max(2000) });

export type RaiseImmediateConcernOptions = {
  transferId: string;
  note: string;
  actor: SessionUser;
  clientAddress: string | null;
};

export type SenderContact = { pharmacy: string; npi: string; pharmacist: string; email: string; phone: string | null };

export async function raiseImmediateConcern(
  opts: RaiseImmediateConcernOptions,
): Promise<{ transferId: string; contact: SenderContact }> {
  const { note } = ConcernInputSchema.parse({ note: opts.note });
  return db().$transaction(async (tx) => {
    const updated = await tx.immediateConfirmation.updateMany({
      where: { transferId: opts.transferId, verifiedAt: null },
      data: { concernNote: note, concernAt: new Date() },
    });
    if (updated.count === 0) {
      throw new DomainError("conflict", `${opts.transferId} is not an unverified automatic confirmation`);
    }
    const transfer = await tx.transfer.findUniqueOrThrow({ where: { id: opts.transferId }, select: { request: true } });
    await recordAuditEvent(
      {
        actor: userActor(opts.actor, opts.clientAddress),
        action: "transfer.immediate_concern",
        transferId: opts.transferId,
        details: { transferId: opts.transferId, noteLength: note.length },
      },
      tx,
    );
    return { transferId: opts.transferId, contact: senderContact(transfer.request) };
  });
}

/** The sending pharmacy's contact, from the stored request. */
export function senderContact(request: unknown): SenderContact {
  const p = (request as { sendingPharmacy: Record<string, unknown> }).sendingPharmacy;
  const name = p.pharmacist as { firstName?: string; lastName?: string } | undefined;
  const c = p.contactInfo as { countryCode?: string; phoneNumber?: string } | null;
  return {
    pharmacy: String(p.name),
    npi: String(p.npi),
    pharmacist: [name?.firstName, name?.lastName].filter(Boolean).join(" "),
    email: String(p.email),
    phone: c?.phoneNumber ? `${c.countryCode ?? ""} ${c.phoneNumber}`.trim() : null,
  };
}
