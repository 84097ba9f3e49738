// Creating the first admin before exporting the deployment's keys must not key the database with anything
// else: with DATABASE_URL set, the CLI (and the worker, and db:deploy) refuse to run without AUTH_SECRET,
// DATA_ENCRYPTION_KEY and AUDIT_HMAC_KEY, even where an earlier `npm run dev` left development keys in
// DATA_DIR, and write nothing. With other keys than the ones the database's records were written under,
// the CLI is refused before it writes.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runCli } from "@/tests/support/cli";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NO_KEYS = { AUTH_SECRET: undefined, DATA_ENCRYPTION_KEY: undefined, AUDIT_HMAC_KEY: undefined };
const OTHER_KEYS = {
  AUTH_SECRET: randomBytes(32).toString("base64"),
  DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  AUDIT_HMAC_KEY: randomBytes(32).toString("base64"),
};
const PASSWORD = "a long enough admin password 42";

let databaseUrl: string;
/** A data directory as `npm run dev` leaves it: development keys in files. */
const devDataDir = mkdtempSync(path.join(os.tmpdir(), "rx-dev-keys-"));
const DEV_KEY_FILES = ["auth-secret", "data-encryption-key", "audit-hmac-key"];

async function count(table: "users" | "audit_events"): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
  } finally {
    await client.end();
  }
}

const createAdmin = (email: string, keys: Record<string, string | undefined>) =>
  runCli(["user", "create", "--email", email, "--password", PASSWORD, "--role", "admin"], {
    DATABASE_URL: databaseUrl,
    DATA_DIR: devDataDir,
    NODE_ENV: undefined,
    ...keys,
  });

beforeAll(async () => {
  databaseUrl = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_keys");
  for (const file of DEV_KEY_FILES) writeFileSync(path.join(devDataDir, file), randomBytes(32).toString("base64url"));
}, 60_000);

afterAll(() => rmSync(devDataDir, { recursive: true, force: true }));

describe("the first admin, with DATABASE_URL set", () => {
  it("without the keys is refused, says what to export, and writes nothing (dev keys in DATA_DIR are not used)", async () => {
    const devKeysBefore = DEV_KEY_FILES.map((f) => readFileSync(path.join(devDataDir, f), "utf8"));
    const run = await createAdmin("first.admin@pharmacy.example", NO_KEYS);
    expect(run.code, run.stderr).toBe(2);
    const message = (run.json.error as { code: string; message: string }).message;
    expect(run.json.error).toMatchObject({ code: "configuration" });
    expect(message).toContain(
      "refusing to start with DATABASE_URL set without AUTH_SECRET, DATA_ENCRYPTION_KEY, AUDIT_HMAC_KEY",
    );
    for (const name of ["AUTH_SECRET", "DATA_ENCRYPTION_KEY", "AUDIT_HMAC_KEY"])
      expect(message).toContain(`export ${name}="$(openssl rand -base64 32)"`);
    expect(await count("users")).toBe(0);
    expect(await count("audit_events")).toBe(0);
    expect(readdirSync(devDataDir).sort()).toEqual([...DEV_KEY_FILES].sort());
    expect(DEV_KEY_FILES.map((f) => readFileSync(path.join(devDataDir, f), "utf8"))).toEqual(devKeysBefore);
  }, 60_000);

  it("with one key missing is refused too, naming only that one", async () => {
    const run = await createAdmin("first.admin@pharmacy.example", { ...TEST_SECRETS, AUDIT_HMAC_KEY: undefined });
    expect(run.code).toBe(2);
    expect((run.json.error as { message: string }).message).toMatch(/without AUDIT_HMAC_KEY:/);
    expect(await count("users")).toBe(0);
  }, 60_000);

  it("with the deployment's keys is created; a later run with other keys is refused before it writes", async () => {
    const first = await createAdmin("first.admin@pharmacy.example", TEST_SECRETS);
    expect(first.code, JSON.stringify(first.json)).toBe(0);
    const users = await count("users");
    const records = await count("audit_events");
    expect(users).toBe(1);
    expect(records).toBeGreaterThan(0);

    const other = await createAdmin("second.admin@pharmacy.example", OTHER_KEYS);
    expect(other.code).toBe(1);
    expect(other.json.error).toMatchObject({ code: "key_mismatch" });
    expect((other.json.error as { message: string }).message).toMatch(/chained under another AUDIT_HMAC_KEY/);
    expect(await count("users")).toBe(users);
    expect(await count("audit_events")).toBe(records);
  }, 90_000);
});

/** Runs a script of package.json (by its file) with DATABASE_URL and no keys; its exit code and output. */
async function runWithoutKeys(script: string): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: devDataDir, LOG_LEVEL: "warn" };
  for (const name of Object.keys(NO_KEYS)) delete env[name];
  Reflect.deleteProperty(env, "NODE_ENV");
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", script], { cwd: ROOT, env });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  return { code, output };
}

describe("the other processes, with DATABASE_URL set and no keys", () => {
  it.each(["scripts/worker.ts", "scripts/db-deploy.ts"])(
    "%s is refused, saying what to export",
    async (script) => {
      const { code, output } = await runWithoutKeys(script);
      expect(code, output).toBe(2);
      expect(output).toContain("refusing to start with DATABASE_URL set without AUTH_SECRET");
      expect(output).toContain('export AUDIT_HMAC_KEY="$(openssl rand -base64 32)"');
    },
    60_000,
  );
});
