// The callback jobs on graphile-worker's queue, added with its SQL function `graphile_worker.add_job` so that
// they commit or roll back with the transaction that adds them (the transactional outbox). The callbacks row
// is the source of truth; a job only says "look at this callback at this time".
//
// One automatic job per callback, keyed by the callback's id (its webhook-id): adding it again replaces the
// waiting job (or, when that job is running, leaves it to finish and queues a new one), so a callback never
// has two waiting automatic jobs. A pharmacist's "Redeliver" is a job of its own under another key, so the
// retry schedule cannot overwrite it.
import type { Prisma } from "@/generated/prisma/client";
import {
  addDeliveryJob,
  cancelDeliveryStatement,
  queueStrandedCallbacks as queueStrandedStatement,
  scheduleDeliveryStatement,
  selectRedeliveryJob,
} from "@/lib/callbacks/queries/job-queue";
import { execInPrismaTx } from "@/lib/db/kysely";
import { retryTransient } from "@/lib/db/retry-transient";

export { DELIVER_TASK } from "@/lib/callbacks/queries/job-queue";
export const RECONCILE_TASK = "reconcile-callbacks";

export type DeliverJobPayload = { callbackId: string; manual?: boolean };

type Tx = Prisma.TransactionClient;

export const redeliveryJobKey = (callbackId: string) => `redeliver:${callbackId}`;

/**
 * graphile-worker runs due jobs by priority (lower first), then run_at. A decision's first attempt (queued to
 * run now) goes ahead of every later attempt (queued for a time: a retry, an early or interrupted one): else a
 * partner whose endpoint is down, its retries falling due by the hundred, holds back every other partner's
 * fresh callbacks until each of its failures is recorded.
 */
export const FIRST_ATTEMPT_PRIORITY = 0;
export const LATER_ATTEMPT_PRIORITY = 1;

const priorityOf = (runAt: Date | null) => (runAt === null ? FIRST_ATTEMPT_PRIORITY : LATER_ATTEMPT_PRIORITY);

/**
 * The call that queues (or moves) a callback's automatic delivery job to run at `runAt` (now when null: the
 * first attempt), as an SQL expression (lib/callbacks/queries/job-queue.ts), so that a statement that writes the callback
 * can queue its job in the same round trip.
 */
export function deliveryJobSql(callbackId: string, runAt: Date | null) {
  return addDeliveryJob(callbackId, runAt, priorityOf(runAt));
}

/** Queues (or moves) the callback's automatic delivery job to run at `runAt` (now when null: the first attempt). */
export async function scheduleDelivery(tx: Tx, callbackId: string, runAt: Date | null): Promise<void> {
  await execInPrismaTx(tx, scheduleDeliveryStatement({ callbackId, runAt, priority: priorityOf(runAt) }));
}

/** Queues a one-off manual delivery ("Redeliver"), to run now. */
export async function scheduleRedelivery(tx: Tx, callbackId: string): Promise<void> {
  await execInPrismaTx(tx, selectRedeliveryJob(callbackId, redeliveryJobKey(callbackId)));
}

/** Drops the callback's waiting automatic job (the callback is settled); a running one is left to finish. */
export async function cancelScheduledDelivery(tx: Tx, callbackId: string): Promise<void> {
  await execInPrismaTx(tx, cancelDeliveryStatement({ callbackId }));
}

/**
 * Gives every PENDING callback that has no runnable job a job again, at its next_attempt_at (or now). Run
 * when a worker starts and now and then from the worker's crontab: a job can be stranded only by a worker
 * killed while it held the job (graphile-worker frees such a lock only after 4 hours) or by a job that used
 * up its own attempts on database errors. Adding a job that turns out to be redundant is harmless: the
 * delivery task re-reads the callback and does nothing when it is not due. Returns how many were queued.
 */
export async function reconcileCallbackJobs(): Promise<number> {
  // Several passes can run at once (every worker's start and crontab, on every instance). Each takes the
  // job-key locks in callback-id order (add_jobs is given them sorted), so two passes cannot hold
  // each other's locks; a deadlock with a job being worked on is still possible and is simply run again.
  return retryTransient(queueStrandedCallbacks, { what: "callback reconcile" });
}

async function queueStrandedCallbacks(): Promise<number> {
  const row = await queueStrandedStatement().executeTakeFirst();
  return row?.queued ?? 0;
}
