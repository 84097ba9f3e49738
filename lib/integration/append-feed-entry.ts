// The approval's entry in the integration feed, written as the LAST statement of the approval's transaction.
//
// Why a lock: a plain sequence hands out numbers in statement order, not commit order. Transaction A could
// take seq 5 and commit after B took 6 and committed; a reader between the two commits would see 6, move
// its cursor past 5, and never see A. Under a transaction-level advisory lock taken just before the insert,
// the next approval can take its number only once this transaction has committed or rolled back
// (PostgreSQL makes a commit visible before it releases the transaction's locks), so numbers become visible
// in increasing order and a cursor "after seq N" can never skip. A rolled-back approval leaves a gap, which
// a reader simply does not see. The lock is held only from this insert to COMMIT.
import { Prisma } from "@/generated/prisma/client";

const FEED_LOCK = 7324017;

export async function appendFeedEntry(
  tx: Prisma.TransactionClient,
  opts: { transferId: string; approvedAt: Date },
): Promise<void> {
  await tx.$executeRaw`${feedEntryInsertSql(opts)}`;
}

/**
 * The same as one INSERT, for statements that do more in one round trip (decide-transfer.ts, issue 19): the
 * row comes from the lock function's scan, so the sequence number (the insert's default) is taken only
 * after the lock is granted. It must be the last thing its transaction does before COMMIT.
 */
export function feedEntryInsertSql(opts: { transferId: string; approvedAt: Date }): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO integration_feed (transfer_id, approved_at)
    SELECT ${opts.transferId}, ${opts.approvedAt}::timestamptz FROM pg_advisory_xact_lock(${FEED_LOCK}::bigint)`;
}
