// The least-privilege role printed by `npm run db:deploy -- --print-grants --role <name>`, applied for real:
// connected as that role, the app works (the CLI creates a partner and verifies the audit log), the audit log
// takes INSERT and SELECT, and UPDATE, DELETE and TRUNCATE are refused by the grants themselves
// ("permission denied"), before any trigger.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { namedActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { runCli } from "@/tests/support/cli";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const role = `rx_app_${randomBytes(4).toString("hex")}`;
const password = randomBytes(18).toString("base64url");
let ownerUrl: string;
let appUrl: string;
let grants: string;

async function asOwner<T>(run: (c: pg.Client) => Promise<T>, url = ownerUrl): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  ownerUrl = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_grants");
  setEnv({ DATABASE_URL: ownerUrl, ...TEST_SECRETS, LOG_LEVEL: "warn" });
  await installJobQueue(ownerUrl);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "scripts/db-deploy.ts", "--print-grants", "--role", role],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: ownerUrl, ...TEST_SECRETS, LOG_LEVEL: "silent" },
    },
  );
  grants = stdout;
  await asOwner(async (c) => {
    await c.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await c.query(grants);
  });
  const url = new URL(ownerUrl);
  url.username = role;
  url.password = password;
  appUrl = url.toString();
  await disconnectDb();
  setEnv({ DATABASE_URL: appUrl });
});

afterAll(async () => {
  await disconnectDb();
  await asOwner(async (c) => {
    await c.query(`DROP OWNED BY ${role}`);
    await c.query(`REVOKE ALL ON DATABASE ${c.escapeIdentifier(new URL(ownerUrl).pathname.slice(1))} FROM ${role}`);
    await c.query(`DROP ROLE IF EXISTS ${role}`);
  }).catch(() => {});
});

describe("db:deploy --print-grants", () => {
  it("prints grants for every table, the audit log and the decisions INSERT and SELECT only", () => {
    expect(grants).toContain(`GRANT SELECT, INSERT ON TABLE public."audit_events" TO "${role}";`);
    expect(grants).toContain(`GRANT SELECT, INSERT ON TABLE public."transfer_decisions" TO "${role}";`);
    expect(grants).toContain(`GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE public."transfers" TO "${role}";`);
    expect(grants).toContain(`GRANT SELECT ON TABLE public."_prisma_migrations" TO "${role}";`);
    expect(grants).toContain(`GRANT USAGE, SELECT ON SEQUENCE public."audit_events_id_seq" TO "${role}";`);
    expect(grants).not.toMatch(/TRUNCATE|GRANT ALL/);
  });

  it("as the app role, the audit log takes INSERT and SELECT, and refuses UPDATE, DELETE and TRUNCATE by privilege", async () => {
    await recordAuditEvent({ actor: namedActor("test"), action: "test.as_app_role" });
    const row = await db().auditEvent.findFirstOrThrow({ where: { action: "test.as_app_role" } });
    await asOwner(async (c) => {
      expect((await c.query("SELECT current_user AS me")).rows[0].me).toBe(role);
      for (const statement of [
        `UPDATE audit_events SET actor = 'mallory' WHERE id = ${row.id}`,
        `DELETE FROM audit_events WHERE id = ${row.id}`,
        "TRUNCATE audit_events",
        "ALTER TABLE audit_events DISABLE TRIGGER USER",
        `DELETE FROM transfer_decisions`,
      ]) {
        await expect(c.query(statement), statement).rejects.toThrow(/permission denied|must be owner/);
      }
    }, appUrl);
  });

  it("as the app role, the CLI works: it creates a partner (sealed secret, key, client, audit record) and verifies the log", async () => {
    const env = { DATABASE_URL: appUrl, ...TEST_SECRETS };
    const created = await runCli(
      ["partner", "create", "--name", "Least Privilege", "--callback-url", "https://least-privilege.example/cb"],
      env,
    );
    expect(created.code, `${created.stderr}${JSON.stringify(created.json)}`).toBe(0);
    expect(created.json.partnerId).toMatch(/^prt_/);
    const verified = await runCli(["audit", "verify"], env);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.json).toMatchObject({ ok: true, records: 2 });
  });
});
