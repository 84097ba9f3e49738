// What `npm run dev`, `npm start`, the CLI and the worker share: the database they talk to. With
// DATABASE_URL set, that server; otherwise the embedded PostgreSQL in DATA_DIR, started here if it is not
// already running. Migrations (ours, then graphile-worker's job queue schema, whose add_job the callback
// outbox calls) are applied before anything else touches the database.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { deployMigrationsIfPending } from "@/lib/db/migrate";
import { env, EnvError, setEnv } from "@/lib/env";

export type Runtime = { databaseUrl: string; embedded: boolean; stop(): Promise<void> };

export function loadEnvOrExit(): void {
  try {
    env();
  } catch (err) {
    if (err instanceof EnvError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

export function dataDir(): string {
  const dir = path.resolve(env().DATA_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** AUTH_SECRET for local use: generated once and kept in the data dir when the environment gives none. */
export function ensureAuthSecret(log: (msg: string) => void): void {
  if (env().AUTH_SECRET) return;
  const file = path.join(dataDir(), "auth-secret");
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
    log(`AUTH_SECRET not set: generated one for local use in ${file}`);
  }
  setEnv({ AUTH_SECRET: readFileSync(file, "utf8").trim() });
}

export async function startDatabase(opts: { log: (msg: string) => void; migrate?: boolean; callerHandlesSignals?: boolean }): Promise<Runtime> {
  const given = env().DATABASE_URL;
  let runtime: Runtime;
  if (given) {
    runtime = { databaseUrl: given, embedded: false, stop: async () => {} };
  } else {
    const pg = await startEmbeddedPostgres({ dataDir: dataDir(), log: opts.log, callerHandlesSignals: opts.callerHandlesSignals });
    setEnv({ DATABASE_URL: pg.url });
    runtime = { databaseUrl: pg.url, embedded: true, stop: () => pg.stop() };
  }
  if (opts.migrate !== false) {
    await deployMigrationsIfPending(runtime.databaseUrl);
    await installJobQueue(runtime.databaseUrl);
  }
  return runtime;
}
