// The integration feed's entries: an approval only queues its entry; numbers are given later, in one place.
//
// Why numbers are not taken by the approval: a plain sequence hands out numbers in statement order, not
// commit order. Approval A could take seq 5 and commit after B took 6 and committed; a reader between the
// two commits would see 6, move its cursor past 5, and never see A. Taking the number under one lock held to
// COMMIT (the first design) made every approval in the pharmacy wait for the one before it to commit
// (it was the approvals' serialisation point). So the approval inserts an unnumbered row into
// `integration_feed_pending`, which takes no lock and cannot conflict with another approval, and
// `numberFeedEntries` moves the committed pending rows into `integration_feed` under one advisory lock, in
// its own short transaction. Only numberers take numbers, one at a time, each committing before the next
// may start: numbers become visible in increasing order, so a cursor "after seq N" never skips, and an entry
// that commits late simply gets a later number. Readers number before they read (list-feed.ts).
import type { Prisma } from "@/generated/prisma/client";
import { execInPrismaTx } from "@/lib/db/kysely";
import { db } from "@/lib/db/prisma";
import { insertFeedEntry, lockFeedNumbering, numberPendingEntries, selectAnyPendingEntry } from "@/lib/integration/sql";

export type FeedEntry = { transferId: string; approvedAt: Date };

export async function appendFeedEntry(tx: Prisma.TransactionClient, entry: FeedEntry): Promise<void> {
  await execInPrismaTx(tx, insertFeedEntry(entry));
}

/**
 * Numbers every committed pending entry, oldest approval first, inside `tx`, which must commit promptly: the
 * lock is held to its end. The move is a separate statement after the lock, so its snapshot includes the
 * previous numberer's commit (READ COMMITTED takes a snapshot per statement).
 */
export async function numberFeedEntriesIn(tx: Prisma.TransactionClient): Promise<number> {
  await execInPrismaTx(tx, lockFeedNumbering());
  return execInPrismaTx(tx, numberPendingEntries());
}

/** Numbers what is waiting, if anything is: one cheap read when nothing is. Returns how many were numbered. */
export async function numberFeedEntries(): Promise<number> {
  const waiting = await selectAnyPendingEntry().executeTakeFirst();
  if (!waiting?.any) return 0;
  return db().$transaction((tx) => numberFeedEntriesIn(tx));
}
