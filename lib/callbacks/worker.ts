// The callback worker: graphile-worker running the delivery jobs. It runs inside `npm run dev` / `npm start`
// (scripts/serve.ts) and on its own as `npm run worker` (scripts/worker.ts); any number may run against one
// database. Only these scripts import this module: the Next.js app never loads graphile-worker, it only
// adds jobs with SQL inside its own transactions.
import { run, type Runner, type Task, type TaskList } from "graphile-worker";
import pg from "pg";
import { z } from "zod";
import { ALERT_TASKS, startAlertScanner } from "@/lib/alerts/alert-tasks";
import { closeCallbackConnections } from "@/lib/callbacks/callback-connections";
import { deliverCallback } from "@/lib/callbacks/deliver-callback";
import { createDrainGatherer, type DrainGatherer } from "@/lib/callbacks/drain-gatherer";
import { DELIVER_TASK, RECONCILE_TASK, reconcileCallbackJobs } from "@/lib/callbacks/job-queue";
import { jobQueueLogger } from "@/lib/callbacks/job-queue-schema";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { recordWorkerHeartbeat } from "@/lib/ops/lifecycle";
import { startOverviewRollups } from "@/lib/overview/overview-rollup-worker";

/** How often the worker proves it is alive for /readyz (which wants a heartbeat younger than 30 s). */
const HEARTBEAT_MS = 10_000;

const DeliverPayload = z.object({ callbackId: z.string().min(1).max(64), manual: z.boolean().optional() });

/** The jobs one worker starts close together share a drain (drain-gatherer.ts). */
function deliverTask(drainTogether: DrainGatherer): Task {
  return async (payload, helpers) => {
    const parsed = DeliverPayload.safeParse(payload);
    if (!parsed.success) {
      // Nothing to retry: a malformed job is dropped (it cannot name a callback).
      log("error", "callback job with an unreadable payload dropped", { jobId: helpers.job.id });
      return;
    }
    const { callbackId, manual } = parsed.data;
    // A pharmacist's "Redeliver" is one callback; an automatic job also sends its partner's other due ones.
    if (manual) await deliverCallback(callbackId, { manual, signal: helpers.abortSignal });
    else await drainTogether(callbackId, helpers.abortSignal);
  };
}

const reconcileTask: Task = async () => {
  const queued = await reconcileCallbackJobs();
  if (queued > 0) log("warn", "callbacks without a job were queued again", { queued });
};

function callbackTasks(drainTogether: DrainGatherer): TaskList {
  return { [DELIVER_TASK]: deliverTask(drainTogether), [RECONCILE_TASK]: reconcileTask };
}

/**
 * A safety net beside the startup reconcile (graphile-worker's own cron, run once per tick across all
 * workers): a callback whose job was stranded while every worker stayed up is picked up within 10 minutes.
 */
const CRONTAB = `*/10 * * * * ${RECONCILE_TASK}\n`;

export type CallbackWorker = { stop(): Promise<void>; done: Promise<void> };

export async function startCallbackWorker(opts: { connectionString: string }): Promise<CallbackWorker> {
  const settings = env();
  // Our own pool, with an error handler that outlives graphile-worker's: when the database goes away
  // during shutdown (the embedded one stops on the same signal), a dropped idle connection is logged
  // instead of crashing the process.
  const pool = new pg.Pool({ connectionString: opts.connectionString, max: settings.WORKER_CONCURRENCY + 2 });
  pool.on("error", (err) => log("warn", "job queue connection lost", { error: err.message }));
  // A checked-out client that loses its connection emits on itself, not on the pool (graphile-worker
  // warns at start when a pool it is given has no such handler).
  pool.on("connect", (client) =>
    client.on("error", (err) => log("warn", "job queue connection lost", { error: err.message })),
  );
  let runner: Runner;
  try {
    runner = await run({
      pgPool: pool,
      concurrency: settings.WORKER_CONCURRENCY,
      pollInterval: settings.WORKER_POLL_INTERVAL_MS,
      // The host process decides when to stop (and stops the worker first); see stop().
      noHandleSignals: true,
      // The alert emails share the queue: lib/alerts/alert-tasks.ts.
      taskList: {
        ...callbackTasks(
          createDrainGatherer({
            batchSize: settings.CALLBACK_BATCH_SIZE,
            lingerMs: settings.CALLBACK_GATHER_MS,
            slots: settings.WORKER_CONCURRENCY,
          }),
        ),
        ...ALERT_TASKS,
      },
      crontab: CRONTAB,
      logger: jobQueueLogger,
      preset: {
        worker: {
          // Measured (bench/HISTORY.md): each job otherwise costs its own fetch and its own completion
          // round trip. The local queue fetches and locks the next few jobs at once (as many as the worker
          // runs, plus one); completions issued in the same tick go in one statement. A worker killed
          // meanwhile strands at most those few locked jobs, which the startup and crontab reconcile
          // re-queues as it does the one in flight.
          localQueue: { size: settings.WORKER_CONCURRENCY + 1 },
          completeJobBatchDelay: 0,
        },
      },
    });
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  const queued = await reconcileCallbackJobs();
  log("info", "callback worker started", {
    concurrency: settings.WORKER_CONCURRENCY,
    batchSize: settings.CALLBACK_BATCH_SIZE,
    requeued: queued,
    allowPrivateNetworks: settings.CALLBACK_ALLOW_PRIVATE_NETWORKS,
    allowInsecureHttp: settings.CALLBACK_ALLOW_INSECURE_HTTP,
  });
  // The heartbeat: the worker's own pool reaches the database and the runner has not ended.
  let running = true;
  void runner.promise.finally(() => (running = false)).catch(() => {});
  const beat = () =>
    void pool.query("SELECT 1").then(
      () => running && recordWorkerHeartbeat(),
      () => {},
    );
  beat();
  const heartbeat = setInterval(beat, HEARTBEAT_MS);
  heartbeat.unref();
  const alertScanner = startAlertScanner();
  const overviewRollups = startOverviewRollups();
  let stopping: Promise<void> | null = null;
  return {
    done: runner.promise,
    // Graceful: no new jobs; deliveries in flight finish, or are cut short after graphile-worker's abort
    // timeout (5 s) and handed back to the queue for the next worker.
    stop: () => {
      clearInterval(heartbeat);
      alertScanner.stop();
      overviewRollups.stop();
      return (stopping ??= runner
        .stop()
        .catch((err: unknown) => log("error", "callback worker did not stop cleanly", errorFields(err)))
        .then(() => {
          closeCallbackConnections();
          return pool.end();
        })
        .catch(() => {}));
    },
  };
}
