// A pharmacist receives and verifies a transfer that was CONFIRMED automatically: recorded as the pharmacist
// who received it, at that time, and only then released to the dispensing system (its FHIR Bundle and its
// integration feed entry), in the same transaction. Once only: a second verification is a conflict.
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { immediateRecordWords } from "@/lib/immediate-confirm/policy-rules";
import { appendFeedEntry } from "@/lib/integration/feed-entries";

export type VerifyImmediateConfirmationOptions = {
  transferId: string;
  actor: SessionUser;
  clientAddress: string | null;
};

export async function verifyImmediateConfirmation({
  transferId,
  actor,
  clientAddress,
}: VerifyImmediateConfirmationOptions): Promise<{ transferId: string; record: string }> {
  if (actor.role !== "pharmacist") {
    throw new DomainError("forbidden", "only a pharmacist can receive and verify a transfer");
  }
  return db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: actor.id } });
    if (!user || user.disabledAt) throw new DomainError("forbidden", "only an active pharmacist can verify");
    const now = new Date();
    const updated = await tx.immediateConfirmation.updateMany({
      where: { transferId, verifiedAt: null },
      data: { verifiedById: user.id, verifiedByName: user.name, verifiedLicense: user.licenseNumber, verifiedAt: now },
    });
    const row = await tx.immediateConfirmation.findUnique({ where: { transferId } });
    if (!row) throw new DomainError("not_found", `${transferId} was not confirmed automatically`);
    if (updated.count === 0) {
      throw new DomainError(
        "conflict",
        `${transferId} was already verified by ${row.verifiedByName} at ${row.verifiedAt?.toISOString()}`,
      );
    }
    await appendFeedEntry(tx, { transferId, approvedAt: now });
    await recordAuditEvent(
      {
        actor: userActor(user, clientAddress),
        action: "transfer.immediate_verified",
        transferId: transferId,
        details: { transferId, policyVersion: row.policyVersion, license: user.licenseNumber },
      },
      tx,
    );
    return { transferId, record: immediateRecordWords(row) };
  });
}
