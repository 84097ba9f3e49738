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
import { findAuditKeyMismatch } from "@/lib/audit/audit-head-log";
import { SecretKeyError } from "@/lib/crypto/secret-box";
import { env, EnvError, setEnv } from "@/lib/env";
import { log } from "@/lib/log";
import {
  keysRequiredBecause,
  missingSecretsMessage,
  productionSettingProblems,
  SECRETS,
} from "@/lib/ops/required-settings";
import { checkStoredSecrets } from "@/lib/partners/sealed-secrets";

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

/** Writes the refusal and exits 2 (a configuration error, as for an invalid environment). */
function refuse(lines: string[], json: boolean): never {
  const text = lines.join("\n");
  if (json) process.stdout.write(`${JSON.stringify({ error: { code: "configuration", message: text } })}\n`);
  process.stderr.write(`[rx-transfer] ${text}\n`);
  process.exit(2);
}

/**
 * `npm start`: the keys, the store's identity and (with single sign-on) PUBLIC_URL must all be given; every
 * problem is named at once.
 */
export function requireProductionSettings(): void {
  const problems = productionSettingProblems(env());
  const secrets = missingSecretsMessage(env(), "in production");
  if (!secrets && problems.length === 0) return;
  refuse(
    [
      ...(secrets ? [secrets] : []),
      ...(problems.length > 0 ? ["refusing to start in production:", ...problems.map((p) => `  ${p}`)] : []),
      "",
    ],
    false,
  );
}

/**
 * The keys of every process (server, worker, CLI, db:deploy). With DATABASE_URL set or in production they
 * must be given; only development on the embedded database generates missing ones, once, into DATA_DIR, so
 * that `npm run dev`, the CLI and the worker on this machine share them.
 */
export function ensureSecrets(say: (msg: string) => void, opts: { production?: boolean; json?: boolean } = {}): void {
  const because = keysRequiredBecause(env(), opts.production === true || env().NODE_ENV === "production");
  if (because) {
    const message = missingSecretsMessage(env(), because);
    if (message) refuse([message, ""], opts.json === true);
    return;
  }
  for (const secret of SECRETS) {
    if (env()[secret.name]) continue;
    const file = path.join(dataDir(), secret.file);
    if (!existsSync(file)) {
      try {
        // "wx": when two processes race to create it, the loser reads the winner's.
        writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
        say(`${secret.name} not set: generated one for local use in ${file}`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
    }
    setEnv({ [secret.name]: readFileSync(file, "utf8").trim() });
  }
}

/**
 * After the database is up: the keys must be the ones the data was written under. A mismatch (the CLI run
 * with other keys than the server) is a clear error at start, not a failed callback or a broken chain later.
 */
export async function checkKeysAgainstDatabase(): Promise<void> {
  const problems: string[] = [];
  try {
    const { secrets, underCurrentKey } = await checkStoredSecrets();
    if (underCurrentKey < secrets) {
      log("warn", "stored secrets not under the current DATA_ENCRYPTION_KEY", {
        secrets,
        underCurrentKey,
        fix: "npm run cli -- secrets rotate-key",
      });
    }
  } catch (err) {
    if (!(err instanceof SecretKeyError)) throw err;
    problems.push(err.message);
  }
  const audit = await findAuditKeyMismatch();
  if (audit) problems.push(audit);
  if (problems.length > 0) throw new KeyMismatchError(problems.join("\n"));
}

export class KeyMismatchError extends Error {}

export async function startDatabase(opts: {
  log: (msg: string) => void;
  migrate?: boolean;
  callerHandlesSignals?: boolean;
}): Promise<Runtime> {
  const given = env().DATABASE_URL;
  let runtime: Runtime;
  if (given) {
    runtime = { databaseUrl: given, embedded: false, stop: async () => {} };
  } else {
    const pg = await startEmbeddedPostgres({
      dataDir: dataDir(),
      log: opts.log,
      callerHandlesSignals: opts.callerHandlesSignals,
    });
    setEnv({ DATABASE_URL: pg.url });
    runtime = { databaseUrl: pg.url, embedded: true, stop: () => pg.stop() };
  }
  if (opts.migrate !== false) await migrateDatabase(runtime.databaseUrl);
  return runtime;
}

/** Our migrations, then the job queue's schema (each only when pending). */
export async function migrateDatabase(databaseUrl: string): Promise<void> {
  await deployMigrationsIfPending(databaseUrl);
  await installJobQueue(databaseUrl);
}
