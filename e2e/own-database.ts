// For browser tests that need a server of their own (the development server; a database broken on
// purpose): a fresh, migrated database on the PostgreSQL server that e2e/global-setup.ts started, and
// users made in it through the admin command line, as an operator would.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { databaseUrl, dropDatabase } from "../lib/db/migrate";
import { createMigratedDatabase } from "../tests/support/database";
import { TEST_SECRETS } from "../tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "..");

export type OwnDatabase = { url: string; drop(): Promise<void> };

export async function createOwnDatabase(prefix: string): Promise<OwnDatabase> {
  const shared = process.env.E2E_DATABASE_URL;
  if (!shared) throw new Error("E2E_DATABASE_URL is set by e2e/global-setup.ts");
  const adminUrl = databaseUrl(shared, "postgres");
  const url = await createMigratedDatabase(adminUrl, prefix);
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  return { url, drop: () => dropDatabase(adminUrl, name) };
}

export async function createUserWithCli(
  databaseUrl: string,
  user: { email: string; password: string; name: string; role: "pharmacist" | "admin" },
) {
  const args = [
    "user",
    "create",
    "--email",
    user.email,
    "--password",
    user.password,
    "--role",
    user.role,
    "--name",
    user.name,
    "--json",
  ];
  await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/cli.ts", ...args],
    {
      cwd: ROOT,
      // The run's keys: the CLI's audit record must chain under the key the test servers use.
      env: { ...process.env, DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "warn" },
    },
  );
}
