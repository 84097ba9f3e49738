// A pharmacist's claim on a transfer under review: others see who holds it, and cannot decide it while the
// claim is live. A claim lasts CLAIM_MINUTES and is renewed while the review screen stays open; it lapses
// on its own when the pharmacist leaves. Taking it is one conditional UPDATE, so two pharmacists can
// never both hold it:
//   … WHERE status = 'RECEIVED' AND (claimed_by_id IS NULL OR claim_expires_at <= now() OR claimed_by_id = me)
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import * as claimSql from "@/lib/transfers/queries/claim";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { AlreadyDecidedError, ClaimHeldError } from "@/lib/transfers/decision/decision-errors";

export type ClaimState = { referenceID: string; heldBy: string; heldById: string; claimExpiresAt: string };

export function claimMs(): number {
  return Math.round(env().CLAIM_MINUTES * 60_000);
}

export async function claimTransfer(input: {
  transferId: string;
  actor: SessionUser;
  clientAddress: string | null;
}): Promise<ClaimState> {
  const { transferId, actor } = input;
  if (actor.role !== "pharmacist") throw new DomainError("forbidden", "Only pharmacists claim transfers for review.");
  const seconds = claimMs() / 1000;
  // The statement and why it is one: queries/claim.ts.
  const claimed = await claimSql.takeClaim(transferId, actor.id, seconds).executeTakeFirst();
  if (!claimed?.claim_expires_at) throw await whyNotClaimable(transferId);
  if (!claimed.was_mine) {
    await recordAuditEvent({
      actor: userActor(actor, input.clientAddress),
      action: "transfer.claimed",
      transferId,
      details: { until: claimed.claim_expires_at.toISOString() },
    });
  }
  return {
    referenceID: transferId,
    heldBy: actor.name,
    heldById: actor.id,
    claimExpiresAt: claimed.claim_expires_at.toISOString(),
  };
}

/** Gives the claim back (only the holder can). Returns false when there was nothing of theirs to release. */
export async function releaseClaim(input: {
  transferId: string;
  actor: SessionUser;
  clientAddress: string | null;
}): Promise<boolean> {
  const { numUpdatedRows } = await claimSql.releaseClaim(input.transferId, input.actor.id).executeTakeFirst();
  const released = Number(numUpdatedRows);
  if (released > 0) {
    await recordAuditEvent({
      actor: userActor(input.actor, input.clientAddress),
      action: "transfer.claim_released",
      transferId: input.transferId,
    });
  }
  return released > 0;
}

async function whyNotClaimable(transferId: string): Promise<DomainError> {
  const row = await db().transfer.findUnique({
    where: { id: transferId },
    select: {
      status: true,
      claimExpiresAt: true,
      claimedById: true,
      claimedBy: { select: { name: true } },
      decision: { select: { decision: true, pharmacistName: true, decidedAt: true } },
    },
  });
  if (!row) return new DomainError("not_found", `No transfer ${transferId}.`);
  if (row.status !== "RECEIVED") {
    if (!row.decision) return new DomainError("conflict", "This transfer is no longer waiting for a decision.");
    return new AlreadyDecidedError({
      decision: row.decision.decision,
      decidedBy: row.decision.pharmacistName,
      decidedAt: row.decision.decidedAt.toISOString(),
    });
  }
  return new ClaimHeldError({
    heldBy: row.claimedBy?.name ?? "another pharmacist",
    heldById: row.claimedById ?? "",
    claimExpiresAt: (row.claimExpiresAt ?? new Date()).toISOString(),
  });
}
