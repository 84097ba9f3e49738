// graphile-worker's schema (`graphile_worker.*`, including the add_job function the outbox calls) and its
// log output as our structured log lines. Installed wherever our own migrations are applied
// (scripts/runtime.ts), before the app or a worker uses the database.
import { Logger, runMigrations } from "graphile-worker";
import { errorFields, log } from "@/lib/log";

/** graphile-worker's messages as our log lines: errors and warnings as such, its chatter only at debug. */
export const jobQueueLogger = new Logger((scope) => (level, message, meta) => {
  const fields = {
    component: "graphile-worker",
    ...(scope.taskIdentifier ? { task: scope.taskIdentifier } : {}),
    ...(scope.jobId ? { jobId: scope.jobId } : {}),
  };
  const kind = level as string;
  if (kind === "error") log("error", message, { ...fields, ...(meta?.error ? errorFields(meta.error) : {}) });
  else if (kind === "warning") log("warn", message, fields);
  else log("debug", message, fields);
});

/** Installs or upgrades graphile-worker's schema. Idempotent, and safe when several processes start at once. */
export async function installJobQueue(connectionString: string): Promise<void> {
  await runMigrations({ connectionString, logger: jobQueueLogger });
}
