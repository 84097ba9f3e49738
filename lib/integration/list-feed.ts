// The feed of approved transfers for interface engines: entries after a cursor, in the order they were
// numbered (about the approvals' commit order), each with its FHIR Bundle. Waiting entries are numbered first
// (feed-entries.ts), then one SQL statement reads, so one snapshot: it sees every entry up to some sequence
// number and, because numbers become visible in increasing order, none beyond a gap a later commit could fill.
import type { Bundle } from "@medplum/fhirtypes";
import { buildTransferBundle } from "@/lib/fhir/build-transfer-bundle";
import { encodeFeedCursor } from "@/lib/integration/feed-cursor";
import { numberFeedEntries } from "@/lib/integration/feed-entries";
import { selectFeedPage } from "@/lib/integration/sql";
import { TransferRequestSchema } from "@/lib/interface";

export const FEED_PAGE_MAX = 100;

export type FeedItem = { referenceID: string; approvedAt: string; cursor: string; bundle: Bundle };
export type FeedPage = { items: FeedItem[]; nextCursor: string; hasMore: boolean };

export async function listIntegrationFeed(opts: { after: bigint; limit: number }): Promise<FeedPage> {
  await numberFeedEntries();
  const rows = (await selectFeedPage({ after: opts.after, limit: opts.limit + 1 }).execute()).map((r) => ({
    ...r,
    seq: BigInt(r.seq),
  }));
  const page = rows.slice(0, opts.limit);
  const items = page.map((row) => ({
    referenceID: row.transfer_id,
    approvedAt: row.approved_at.toISOString(),
    cursor: encodeFeedCursor(row.seq),
    bundle: buildTransferBundle({
      referenceID: row.transfer_id,
      request: TransferRequestSchema.parse(row.request),
      localRxNumber: row.local_rx_number,
      approvedAt: row.approved_at,
      drugSchedule: row.drug_schedule,
    }),
  }));
  const last = page.at(-1);
  return { items, nextCursor: encodeFeedCursor(last ? last.seq : opts.after), hasMore: rows.length > opts.limit };
}
