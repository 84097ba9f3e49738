// db:deploy refuses a database that is not UTF8 (initdb picks SQL_ASCII under the C locale, as a bare
// container's PostgreSQL may), saying how to make one that is, and writes nothing to it; a UTF8 database
// on the same server deploys.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { databaseUrl, dropDatabase } from "@/lib/db/migrate";
import { TEST_SECRETS } from "@/tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const suffix = randomBytes(4).toString("hex");
const ASCII_DB = `rx_ascii_${suffix}`;
const UTF8_DB = `rx_utf8_${suffix}`;

async function onServer<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function dbDeploy(url: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/db-deploy.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: url, LOG_LEVEL: "warn" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

let adminUrl: string;

beforeAll(async () => {
  adminUrl = inject("adminDatabaseUrl");
  await onServer(adminUrl, async (client) => {
    await client.query(
      `CREATE DATABASE ${ASCII_DB} ENCODING 'SQL_ASCII' LOCALE_PROVIDER libc LOCALE 'C' TEMPLATE template0`,
    );
    await client.query(`CREATE DATABASE ${UTF8_DB} ENCODING 'UTF8' TEMPLATE template0`);
  });
});

afterAll(async () => {
  await dropDatabase(adminUrl, ASCII_DB);
  await dropDatabase(adminUrl, UTF8_DB);
});

describe("db:deploy and the database's encoding", () => {
  it("refuses a SQL_ASCII database, says how to make a UTF8 one, and creates no table", async () => {
    const url = databaseUrl(adminUrl, ASCII_DB);
    const run = await dbDeploy(url);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      `db:deploy refused: database "${ASCII_DB}" is encoded SQL_ASCII; this service needs UTF8`,
    );
    expect(run.stderr).toContain(`CREATE DATABASE "${ASCII_DB}" ENCODING 'UTF8'`);
    expect(run.stdout).not.toContain("migrations applied");
    const tables = await onServer(url, (client) =>
      client.query("SELECT tablename FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"),
    );
    expect(tables.rows).toEqual([]);
  }, 120_000);

  it("deploys a UTF8 database on the same server", async () => {
    const run = await dbDeploy(databaseUrl(adminUrl, UTF8_DB));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("migrations applied (DATABASE_URL)");
  }, 120_000);
});
