// The transfer log's two readers over the seeded decisions: the inspection export's first page (its count,
// its audit row, the first keyset batch of decided transfers built into CSV records: what the download
// receives first) and the log on screen's
// first page, for the last 30 days. Floor: the bare read of the same page's keys on the decisions' index.
import { userActor } from "@/lib/audit/actor";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import {
  decidedFilter,
  EXPORT_BATCH,
  EXPORT_FIRST_BATCH,
  exportTransfers,
  parseTransferExportQuery,
} from "@/lib/transfers/record";
import {
  listDecidedTransfers,
  LOG_PAGE_SIZE,
  parseDecidedTransfersQuery,
  selectExportBatch,
} from "@/lib/transfers/record";
import { explain } from "./query-plans";
import { queueCase, timeIt, type QueueCase } from "./queue-case";
import { progress } from "./support";

const PERIOD_DAYS = 30;

export async function benchTransferLog(opts: {
  databaseUrl: string;
  actor: SessionUser;
  runs: number;
}): Promise<QueueCase[]> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const raw = { from: day(-PERIOD_DAYS), to: day(1) };
  const query = parseTransferExportQuery(raw);
  const actor = userActor(opts.actor, "127.0.0.1");
  const exportFirstPage = async () => {
    const exported = await exportTransfers(query, actor);
    // The header, then the first batch: what the download's first read of the database gives it.
    let lines = 0;
    for await (const line of exported.lines) {
      void line;
      if (++lines > EXPORT_FIRST_BATCH) break;
    }
  };
  const logQuery = parseDecidedTransfersQuery(raw);
  const logFirstPage = () => listDecidedTransfers(logQuery, actor);
  const floor = (limit: number, dir: "ASC" | "DESC") => () =>
    db().$queryRawUnsafe(
      `SELECT transfer_id FROM transfer_decisions WHERE decided_at >= $1 AND decided_at < $2 AND decision = 'APPROVED'
        ORDER BY decided_at ${dir}, transfer_id ${dir} LIMIT ${limit}`,
      query.fromDate,
      new Date(),
    );
  const firstBatch = () => selectExportBatch(decidedFilter(query, new Date()), null, EXPORT_FIRST_BATCH);
  const fullBatch = () => selectExportBatch(decidedFilter(query, new Date()), null, EXPORT_BATCH);
  const batch = firstBatch().compile();
  const exportPlan = await explain(opts.databaseUrl, {
    query: batch.sql,
    params: JSON.stringify(batch.parameters),
  });
  const cases = [
    {
      name: `transfer-log export, first page (${EXPORT_FIRST_BATCH} approvals of ${PERIOD_DAYS} days as CSV, count, audit row)`,
      run: exportFirstPage,
      floor: floor(EXPORT_FIRST_BATCH, "ASC"),
      plan: exportPlan,
    },
    {
      // What the database gives the page, without the count, the audit row and the records built from it.
      name: "  its first batch's statement alone",
      run: () => firstBatch().execute(),
      floor: floor(EXPORT_FIRST_BATCH, "ASC"),
      plan: [],
    },
    {
      // Each later batch of the download.
      name: `  a full batch's statement (${EXPORT_BATCH} approvals)`,
      run: () => fullBatch().execute(),
      floor: floor(EXPORT_BATCH, "ASC"),
      plan: [],
    },
    {
      name: `transfer log on screen, first page (${LOG_PAGE_SIZE} newest of ${PERIOD_DAYS} days, count, audit row)`,
      run: logFirstPage,
      floor: floor(LOG_PAGE_SIZE, "DESC"),
      plan: [],
    },
  ];
  const results: QueueCase[] = [];
  for (const c of cases) {
    const done = progress(`queue: ${c.name}`, 1);
    await timeIt(3, c.run);
    await timeIt(3, c.floor);
    const ours = await timeIt(opts.runs, c.run);
    const base = await timeIt(opts.runs, c.floor);
    done();
    results.push(queueCase(c.name, ours, base, c.plan));
  }
  return results;
}
