// Applying the committed migrations, and throwaway databases for tests.
//
// Migrations go through the project's own Prisma CLI (`migrate deploy`), which runs the offline
// schema engine in prisma/engine/ (prisma.config.ts points the CLI at it): the same code path as an
// admin running `npx prisma migrate deploy`, including creating the database when it is missing.

import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PRISMA_CLI = path.join(PROJECT_ROOT, "node_modules", "prisma", "build", "index.js");
const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Applies prisma/migrations to the database at `databaseUrl` (created if missing). */
export async function deployMigrations(databaseUrl: string): Promise<void> {
  const { code, output } = await runPrismaCli(["migrate", "deploy"], { DATABASE_URL: databaseUrl });
  if (code !== 0) {
    throw new Error(`prisma migrate deploy failed (exit code ${code}):\n${output.trim()}`);
  }
}

/** The committed migrations, by folder name. */
function committedMigrations(): string[] {
  return readdirSync(path.join(PROJECT_ROOT, "prisma", "migrations"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/**
 * Applies the migrations only when some are not yet applied: a quick query instead of a CLI run (1-2 s)
 * on every start of the CLI or the server. Anything unexpected (no database, no table) goes to the CLI.
 */
export async function deployMigrationsIfPending(databaseUrl: string): Promise<void> {
  let applied: Set<string> | null = null;
  try {
    applied = await withClient(databaseUrl, async (client) => {
      const rows = await client.query<{ migration_name: string }>(
        "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
      );
      return new Set(rows.rows.map((r) => r.migration_name));
    });
  } catch {
    applied = null;
  }
  if (applied && committedMigrations().every((name) => applied.has(name))) return;
  await deployMigrations(databaseUrl);
}

/** Creates an empty database `name` on the server of `adminUrl`; returns its URL. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  assertDatabaseName(name);
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  return databaseUrl(adminUrl, name);
}

/** Drops database `name` (if it exists), closing any connections to it. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  assertDatabaseName(name);
  await withClient(adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
  );
}

/** The URL of database `name` on the same server, with the same credentials and parameters. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

function assertDatabaseName(name: string): void {
  if (!DATABASE_NAME.test(name)) {
    throw new Error(`Invalid database name "${name}": use lower-case letters, digits and _ (at most 63).`);
  }
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {}); // a dropped connection surfaces through the awaited calls
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

type CliResult = { code: number; output: string };

/** Runs the project's Prisma CLI (no npx: no lookup, no network) from the project root. */
export function runPrismaCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [PRISMA_CLI, ...args],
      {
        cwd: PROJECT_ROOT,
        env: {
          ...process.env,
          // No update check or telemetry ping: they only time out on a closed network.
          CHECKPOINT_DISABLE: "1",
          PRISMA_HIDE_UPDATE_MESSAGE: "1",
          ...env,
        },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 5 * 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}
