import { db } from "@/lib/db/prisma";
import type { TransferResponse } from "@/lib/interface";

/** The transfer's current TransferResponse (the decision's once decided), for its own sender only. */
export async function findTransferResponse(partnerId: string, referenceID: string): Promise<TransferResponse | null> {
  if (referenceID.length > 64) return null;
  const row = await db().transfer.findFirst({
    where: { id: referenceID, partnerId },
    select: { response: true, outcome: true },
  });
  if (!row) return null;
  return (row.outcome ?? row.response) as TransferResponse;
}
