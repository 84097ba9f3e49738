// The review queue's query at the queue part's sizes: the first page, filtered pages, a search and a deep
// page, each beside the floor of the same keyset read (a bare index scan that returns only ids), with the
// query plans showing the indexes used; then the patient history (queue-history.ts), the review screen's
// server work (queue-review-screen.ts) and the transfer log's first pages (queue-export.ts) on the same table.
import { Prisma } from "@/generated/prisma/client";
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { listQueue } from "@/lib/transfers/queue";
import { QueueQuerySchema, type QueueQuery } from "@/lib/transfers/queue";
import { captureQueries, explain } from "./query-plans";
import { queueCase, timeIt, type QueueCase } from "./queue-case";
import { benchTransferLog } from "./queue-export";
import { benchHistory } from "./queue-history";
import { benchReviewScreen } from "./queue-review-screen";
import { progress } from "./support";

export type QueueSize = { transfers: number; seedSeconds: number; databaseBytes?: number; cases: QueueCase[] };

export async function benchQueue(opts: {
  databaseUrl: string;
  partnerId: string;
  actor: SessionUser;
  runs: number;
}): Promise<QueueCase[]> {
  const capture = captureQueries();
  const middle = await db().$queryRaw<{ received_at: Date; id: string }[]>`
    SELECT received_at, id FROM transfers WHERE status = 'RECEIVED'
     ORDER BY received_at, id OFFSET (SELECT count(*) * 9 / 10 FROM transfers WHERE status = 'RECEIVED') LIMIT 1`;
  const deep = middle[0];
  const deepCursor = deep
    ? Buffer.from(JSON.stringify({ p: 0, t: deep.received_at.toISOString(), i: deep.id })).toString("base64url")
    : undefined;

  const cases: { name: string; query: Partial<QueueQuery>; floor: Prisma.Sql }[] = [
    {
      name: "first page (pending, oldest first)",
      query: {},
      floor: Prisma.sql`SELECT id FROM transfers WHERE status = 'RECEIVED' ORDER BY received_at, id LIMIT 51`,
    },
    {
      name: "filtered page (sender + allergies)",
      query: { sender: opts.partnerId, flags: ["allergies"] },
      floor: Prisma.sql`SELECT id FROM transfers WHERE status = 'RECEIVED' AND partner_id = ${opts.partnerId} AND has_allergies ORDER BY received_at, id LIMIT 51`,
    },
    {
      name: "filtered page (schedule C-IV)",
      query: { schedule: "IV" },
      floor: Prisma.sql`SELECT id FROM transfers WHERE status = 'RECEIVED' AND drug_schedule = 'IV' ORDER BY received_at, id LIMIT 51`,
    },
    {
      // The seeded transfers are clean: no row matches, so the page read and each count go through every
      // row of their status. Floor: the first page of pending transfers in index order.
      name: "filtered page (warnings)",
      query: { flags: ["warnings"] },
      floor: Prisma.sql`SELECT id FROM transfers WHERE status = 'RECEIVED' ORDER BY received_at, id LIMIT 51`,
    },
    {
      // The search reads each name the prefix covers in arrival order, pending first; in the seed "garcia ja"
      // covers one name, and a page of its pending transfers fills the page. Floor: that read alone.
      name: "search (patient name prefix, all statuses)",
      query: { status: "all", q: "garcia ja" },
      floor: Prisma.sql`SELECT id FROM transfers WHERE patient_search = 'garcia james' AND status = 'RECEIVED' ORDER BY received_at, id LIMIT 51`,
    },
    {
      name: "deep page (90 % into the pending queue)",
      query: { cursor: deepCursor },
      floor: deep
        ? Prisma.sql`SELECT id FROM transfers WHERE status = 'RECEIVED' AND (received_at, id) > (${deep.received_at}, ${deep.id}) ORDER BY received_at, id LIMIT 51`
        : Prisma.sql`SELECT 1`,
    },
  ];

  const results: QueueCase[] = [];
  for (const c of cases) {
    const query = QueueQuerySchema.parse(c.query);
    const run = () => listQueue(query, { actor: opts.actor, clientAddress: "127.0.0.1" });
    const floor = () => db().$queryRaw(c.floor);
    const done = progress(`queue: ${c.name}`, 1);
    await timeIt(3, run);
    await timeIt(3, floor);
    capture.take();
    await run();
    const queries = capture.take();
    const ours = await timeIt(opts.runs, run);
    const base = await timeIt(opts.runs, floor);
    done();
    // The page read is the query that names the partners join; the counts are the others.
    const pageQuery = queries.find((q) => /\bjoin\b/i.test(q.query) && q.query.includes("partners")) ?? queries[0];
    const plan = pageQuery ? await explain(opts.databaseUrl, pageQuery) : [];
    results.push(queueCase(c.name, ours, base, plan));
  }
  results.push(...(await benchHistory(opts, capture)));
  results.push(...(await benchReviewScreen(opts)));
  results.push(...(await benchTransferLog(opts)));
  return results;
}
