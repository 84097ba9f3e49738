// The transactional outbox: the callback owed to the sender, and the job that will deliver it, are written
// in the same transaction as the decision, so a decision cannot commit without its callback, nor a callback
// exist (or be sent) without its decision. The job is picked up by a worker within milliseconds of the
// commit (graphile-worker's LISTEN/NOTIFY).
import type { Prisma } from "@/generated/prisma/client";
import { scheduleDelivery } from "@/lib/callbacks/job-queue";
import { newId } from "@/lib/ids";
import type { TransferResponse } from "@/lib/interface";

export type EnqueueCallbackInput = { transferId: string; partnerId: string; response: TransferResponse };

/** Returns the callback's id, which is also the Standard Webhooks `webhook-id` of every attempt. */
export async function enqueueCallback(
  tx: Prisma.TransactionClient,
  input: EnqueueCallbackInput,
): Promise<{ callbackId: string }> {
  const callbackId = newId("msg");
  const now = new Date();
  await tx.callback.create({
    data: {
      id: callbackId,
      transferId: input.transferId,
      partnerId: input.partnerId,
      payload: input.response as unknown as Prisma.InputJsonValue,
      status: "PENDING",
      nextAttemptAt: now,
    },
  });
  await scheduleDelivery(tx, callbackId, null);
  return { callbackId };
}
