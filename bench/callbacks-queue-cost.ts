// `npx tsx bench/callbacks-queue-cost.ts [jobs]`: graphile-worker's own cost per job, with nothing else in
// the job: a backlog of no-op jobs drained at the callback worker's concurrency (4), with graphile-worker's
// defaults and with the settings lib/callbacks/worker.ts uses (local queue of concurrency + 1, same-tick
// batched completions), alternating, 3 rounds each. Prints jobs/s and the worker process's CPU ms per job.
import { run, type RunnerOptions } from "graphile-worker";
import pg from "pg";
import { installJobQueue, jobQueueLogger } from "@/lib/callbacks/job-queue-schema";
import { createMigratedDatabase, startTestPostgres } from "@/tests/support/database";
import { median } from "./support";

const JOBS = Number(process.argv[2] ?? 2000);
const CONCURRENCY = 4;

const SETTINGS: Record<string, Partial<RunnerOptions>> = {
  defaults: {},
  tuned: { preset: { worker: { localQueue: { size: CONCURRENCY + 1 }, completeJobBatchDelay: 0 } } },
};

async function drain(
  pool: pg.Pool,
  options: Partial<RunnerOptions>,
): Promise<{ perSecond: number; cpuMsPerJob: number }> {
  await pool.query(
    `SELECT graphile_worker.add_jobs(array_agg(ROW('noop', '{}'::json, null, null, null, null, null, null)::graphile_worker.job_spec)) FROM generate_series(1, $1)`,
    [JOBS],
  );
  let done = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const runner = await run({
    pgPool: pool,
    concurrency: CONCURRENCY,
    noHandleSignals: true,
    logger: jobQueueLogger,
    pollInterval: 1000,
    taskList: { noop: async () => void (++done === JOBS && finished()) },
    ...options,
  });
  await allDone;
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await runner.stop();
  return {
    perSecond: Math.round(JOBS / seconds),
    cpuMsPerJob: Math.round(((used.user + used.system) / 1000 / JOBS) * 1000) / 1000,
  };
}

async function main(): Promise<void> {
  const postgres = await startTestPostgres();
  try {
    const url = await createMigratedDatabase(postgres.adminUrl, "rx_queue_cost");
    await installJobQueue(url);
    const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY + 2 });
    pool.on("error", () => {}); // idle connections dropped when the database stops at the end
    const results: Record<string, { perSecond: number; cpuMsPerJob: number }[]> = { defaults: [], tuned: [] };
    for (let round = 0; round < 3; round++) {
      for (const [name, options] of Object.entries(SETTINGS)) results[name]!.push(await drain(pool, options));
    }
    await pool.end();
    for (const [name, rounds] of Object.entries(results)) {
      const rate = median(rounds.map((r) => r.perSecond));
      const cpu = median(rounds.map((r) => r.cpuMsPerJob));
      process.stdout.write(
        `graphile-worker ${name}: ${rate} no-op jobs/s, ${cpu} ms worker CPU per job (rounds: ${rounds.map((r) => r.perSecond).join(", ")})\n`,
      );
    }
  } finally {
    await postgres.stop();
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
