// `npm run worker`: only the callback worker, for operators who run workers apart from the web servers
// (then start those with RUN_WORKER=false, or not: any number of workers may share one database). Same
// database rule as the server: DATABASE_URL, else the embedded database in DATA_DIR. Stops gracefully on
// SIGTERM / SIGINT: deliveries in flight finish or are handed back to the queue.
import { startCallbackWorker } from "@/lib/callbacks/worker";
import { disconnectDb } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { setDefaultMetrics } from "@/lib/ops/metrics";
import { startOpsListeners } from "@/lib/ops/serve-ops";
import { registerWorkerDefaultMetrics } from "@/lib/ops/worker-default-metrics";
import { checkKeysAgainstDatabase, ensureSecrets, loadEnvOrExit, startDatabase } from "./runtime";

const say = (msg: string) => process.stdout.write(`[rx-transfer worker] ${msg}\n`);

async function main(): Promise<void> {
  loadEnvOrExit();
  // Before anything observes a metric: no GC histogram in the worker (lib/ops/worker-default-metrics.ts).
  setDefaultMetrics(registerWorkerDefaultMetrics);
  // Stored webhook secrets are sealed under DATA_ENCRYPTION_KEY and the audit log is keyed with
  // AUDIT_HMAC_KEY: the worker must use the server's (checked once the database is up).
  ensureSecrets(say);
  // SIGINT/SIGTERM are handled below: the database stops after the worker.
  const db = await startDatabase({ log: say, callerHandlesSignals: true });
  await checkKeysAgainstDatabase();
  const worker = await startCallbackWorker({ connectionString: db.databaseUrl });
  const ops = await startOpsListeners(say);
  say(
    `running (${env().WORKER_CONCURRENCY} deliveries at once, ${db.embedded ? "embedded database" : "DATABASE_URL"})`,
  );

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all([worker.stop(), ops.close()]);
    await disconnectDb();
    await db.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  worker.done.then(
    () => void shutdown(0),
    (err: unknown) => {
      log("error", "callback worker stopped unexpectedly", errorFields(err));
      void shutdown(1);
    },
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`[rx-transfer worker] could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
