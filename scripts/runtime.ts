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

/** The secrets every process must share; `npm start` refuses to run without them. */
const SECRETS = [
  { name: "AUTH_SECRET", file: "auth-secret", what: "signs and encrypts dashboard sessions" },
  {
    name: "DATA_ENCRYPTION_KEY",
    file: "data-encryption-key",
    what: "encrypts stored secrets (webhook secrets, partners' credentials)",
  },
  { name: "AUDIT_HMAC_KEY", file: "audit-hmac-key", what: "keys the audit log's hash chain" },
] as const;

/**
 * Production (`npm start`, or NODE_ENV=production for the CLI and the worker): every secret must be given
 * explicitly. A generated one would differ between instances and from the CLI's, and would sit in the data
 * directory beside the database it protects.
 */
export function requireProductionSecrets(): void {
  const missing = SECRETS.filter((s) => !env()[s.name]);
  if (missing.length === 0) return;
  process.stderr.write(
    [
      `[rx-transfer] refusing to start in production without ${missing.map((s) => s.name).join(", ")}:`,
      ...missing.map((s) => `  ${s.name.padEnd(20)} ${s.what}`),
      "Make each with `openssl rand -base64 32` (at least 32 characters), keep them outside the database (a secret store),",
      "and give the server, every worker and the CLI the same values. Generated secrets are a development convenience",
      "of `npm run dev` only.",
      "",
    ].join("\n"),
  );
  process.exit(2);
}

/**
 * Development: each secret the environment does not give is generated once and kept in the data dir, so
 * `npm run dev`, the CLI and the worker on this machine share it. NODE_ENV=production requires them instead.
 */
export function ensureSecrets(say: (msg: string) => void): void {
  if (env().NODE_ENV === "production") return requireProductionSecrets();
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
  if (opts.migrate !== false) {
    await deployMigrationsIfPending(runtime.databaseUrl);
    await installJobQueue(runtime.databaseUrl);
  }
  return runtime;
}
