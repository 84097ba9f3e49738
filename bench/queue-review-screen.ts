// The review screen's server work beside the queue page's, as the routes call the domain operations, each
// against the transfer's primary-key read.
import type { SessionUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { getPatientHistory } from "@/lib/transfers/review";
import { getTransferActivity } from "@/lib/transfers/record";
import { getTransferReview } from "@/lib/transfers/review";
import { listQueue } from "@/lib/transfers/queue";
import { QueueQuerySchema } from "@/lib/transfers/queue";
import { queueCase, timeIt, type QueueCase } from "./queue-case";
import { SKEWED_PATIENT_REFERENCE } from "./seed-transfers";
import { progress } from "./support";

/**
 * The review screen's server work beside the queue page's, as the routes call the domain operations: the page
 * renders getTransferReview (with its audit row) and getTransferActivity, then the screen asks for the patient
 * history (another audit row); the queue page is listQueue's first page (with its audit row). Both for the
 * oldest pending transfer of a bench patient; baseline: the transfer's primary-key read.
 */
export async function benchReviewScreen(opts: { actor: SessionUser; runs: number }): Promise<QueueCase[]> {
  const [row] = await db().$queryRaw<{ id: string }[]>`
    SELECT id FROM transfers WHERE status = 'RECEIVED' AND patient_reference_id <> ${SKEWED_PATIENT_REFERENCE}
     ORDER BY received_at, id LIMIT 1`;
  const id = row!.id;
  const ctx = { actor: opts.actor, clientAddress: "127.0.0.1" };
  const floor = () => db().$queryRaw`SELECT id FROM transfers WHERE id = ${id}`;
  const cases: { name: string; run: () => Promise<unknown> }[] = [
    {
      name: "queue page (listQueue, first page)",
      run: () => listQueue(QueueQuerySchema.parse({}), ctx),
    },
    {
      name: "review screen's server work (the three below)",
      run: async () => {
        await getTransferReview(id, { ...ctx, screen: "review" });
        await getTransferActivity(id);
        await getPatientHistory({ referenceID: id, ...ctx });
      },
    },
    { name: "  getTransferReview", run: () => getTransferReview(id, { ...ctx, screen: "review" }) },
    { name: "  getTransferActivity", run: () => getTransferActivity(id) },
    { name: "  getPatientHistory", run: () => getPatientHistory({ referenceID: id, ...ctx }) },
  ];
  for (const c of cases) {
    await timeIt(3, c.run);
    await timeIt(3, floor);
  }
  // Round robin, as the history's cases: the pages compared see the same moments of a busy machine.
  const done = progress(`review screen and queue page, ${cases.length} cases in turn`, 1);
  const ms = cases.map((): number[] => []);
  const base: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    for (const [k, c] of cases.entries()) ms[k]!.push(...(await timeIt(1, c.run)));
    base.push(...(await timeIt(1, floor)));
  }
  done();
  return cases.map((c, k) => queueCase(c.name, ms[k]!, base));
}
