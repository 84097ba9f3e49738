// The legal record of a transfer CONFIRMED automatically, in words: the policy version and its owner, and the
// pharmacist who received and verified it (or that no one has yet). Null for any other transfer.
import { db } from "@/lib/db/prisma";
import { immediateRecordWords } from "@/lib/immediate-confirm/policy-rules";

export type ImmediateRecord = { transferId: string; words: string; verified: boolean; concernNote: string | null };

export async function findImmediateRecord(transferId: string): Promise<ImmediateRecord | null> {
  const row = await db().immediateConfirmation.findUnique({ where: { transferId } });
  if (!row) return null;
  return {
    transferId,
    words: immediateRecordWords(row),
    verified: row.verifiedAt !== null,
    concernNote: row.concernNote,
  };
}
