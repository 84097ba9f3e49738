// The FHIR Bundle of one approved transfer, read from its stored request and decision. Only approved
// transfers have one: a dispensing system must never fill a transfer a pharmacist has not approved. A transfer
// CONFIRMED automatically under a store policy has one only once a pharmacist has verified it (lib/immediate-confirm).
import type { Bundle } from "@medplum/fhirtypes";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { buildTransferBundle } from "@/lib/fhir/build-transfer-bundle";
import { TransferRequestSchema } from "@/lib/interface";

export async function getTransferBundle(opts: { referenceID: string }): Promise<Bundle> {
  const transfer = await db().transfer.findUnique({
    where: { id: opts.referenceID },
    select: {
      id: true,
      request: true,
      drugSchedule: true,
      decision: { select: { decision: true, decidedAt: true, localRxNumber: true, drugSchedule: true } },
    },
  });
  if (!transfer) throw new DomainError("not_found", `No transfer ${opts.referenceID}.`);
  if (!transfer.decision) {
    const immediate = await db().immediateConfirmation.findUnique({ where: { transferId: transfer.id } });
    if (immediate) {
      if (!immediate.verifiedAt) {
        throw new DomainError(
          "conflict",
          "Confirmed automatically and not yet received and verified by a pharmacist: not released to the dispensing system.",
        );
      }
      return buildTransferBundle({
        referenceID: transfer.id,
        request: TransferRequestSchema.parse(transfer.request),
        localRxNumber: null,
        approvedAt: immediate.verifiedAt,
        drugSchedule: transfer.drugSchedule,
      });
    }
  }
  if (transfer.decision?.decision !== "APPROVED") {
    throw new DomainError("conflict", "Only an approved transfer has a FHIR Bundle for the dispensing system.");
  }
  return buildTransferBundle({
    referenceID: transfer.id,
    request: TransferRequestSchema.parse(transfer.request),
    localRxNumber: transfer.decision.localRxNumber,
    approvedAt: transfer.decision.decidedAt,
    drugSchedule: transfer.decision.drugSchedule,
  });
}
