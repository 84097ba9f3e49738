// The feed of approved transfers for interface engines: entries after a cursor, in the order they were
// numbered (about the approvals' commit order), each with its FHIR Bundle. Waiting entries are numbered first
// (feed-entries.ts), then one SQL statement reads, so one snapshot: it sees every entry up to some sequence
// number and, because numbers become visible in increasing order, none beyond a gap a later commit could fill.
import type { Bundle } from "@medplum/fhirtypes";
import { db } from "@/lib/db/prisma";
import { buildTransferBundle } from "@/lib/fhir/build-transfer-bundle";
import { encodeFeedCursor } from "@/lib/integration/feed-cursor";
import { numberFeedEntries } from "@/lib/integration/feed-entries";
import { TransferRequestSchema } from "@/lib/transfers/wire";

export const FEED_PAGE_MAX = 100;

export type FeedItem = { referenceID: string; approvedAt: string; cursor: string; bundle: Bundle };
export type FeedPage = { items: FeedItem[]; nextCursor: string; hasMore: boolean };

type Row = {
  seq: bigint;
  transfer_id: string;
  approved_at: Date;
  request: unknown;
  local_rx_number: string | null;
  drug_schedule: string | null;
};

export async function listIntegrationFeed(opts: { after: bigint; limit: number }): Promise<FeedPage> {
  await numberFeedEntries();
  const rows = await db().$queryRaw<Row[]>`
    SELECT f.seq, f.transfer_id, f.approved_at, t.request, d.local_rx_number,
           COALESCE(d.drug_schedule, t.drug_schedule) AS drug_schedule
      FROM integration_feed f
      JOIN transfers t ON t.id = f.transfer_id
      -- An approval, or a verified automatic confirmation (lib/immediate-confirm), whose entry is queued only
      -- when a pharmacist verifies it.
      LEFT JOIN transfer_decisions d ON d.transfer_id = f.transfer_id
     WHERE f.seq > ${opts.after}
       AND (d.transfer_id IS NOT NULL
            OR EXISTS (SELECT 1 FROM immediate_confirmations c WHERE c.transfer_id = f.transfer_id AND c.verified_at IS NOT NULL))
     ORDER BY f.seq
     LIMIT ${opts.limit + 1}`;
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
