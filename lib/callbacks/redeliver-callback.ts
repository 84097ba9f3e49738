// "Redeliver": a person asks for a transfer's callback to be sent again, now (same webhook-id, a new
// timestamp and signature). It is one extra attempt, marked manual on the timeline, whatever the callback's
// state: after a 2xx a FAILED or GONE callback becomes DELIVERED; a failure changes nothing else (a PENDING
// callback keeps its retry schedule). The request is audited; a worker sends it within moments.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { scheduleRedelivery } from "@/lib/callbacks/job-queue";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";

export async function requestRedelivery(transferId: string, actor: Actor): Promise<{ callbackId: string }> {
  if (transferId.length > 64) throw new DomainError("not_found", "no such transfer");
  return db().$transaction(async (tx) => {
    const transfer = await tx.transfer.findUnique({
      where: { id: transferId },
      select: { id: true, callback: { select: { id: true, status: true, attemptCount: true } } },
    });
    if (!transfer) throw new DomainError("not_found", "no such transfer");
    const callback = transfer.callback;
    if (!callback) throw new DomainError("conflict", "this transfer is not decided yet: there is no callback to send");
    await scheduleRedelivery(tx, callback.id);
    await recordAuditEvent(
      {
        actor,
        action: "callback.redelivery_requested",
        transferId,
        details: { callbackId: callback.id, status: callback.status, attemptsSoFar: callback.attemptCount },
      },
      tx,
    );
    return { callbackId: callback.id };
  });
}
