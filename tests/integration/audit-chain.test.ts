// The audit log is append-only (the database refuses UPDATE and DELETE) and tamper-evident: a record
// altered by hand, with the trigger bypassed as a database superuser could, is found by `audit verify`.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { namedActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { db } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { createMigratedDatabase } from "@/tests/support/database";
import { TEST_SECRETS } from "@/tests/support/server";

// A database of its own: this test breaks the chain on purpose.
let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_audit");
  setEnv({ DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "warn" });
});
const ROOT = path.resolve(import.meta.dirname, "../..");

async function cliAuditVerify(): Promise<{ code: number; json: Record<string, unknown> }> {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/cli.ts", "audit", "verify", "--json"],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "silent" },
      },
    );
    return { code: 0, json: JSON.parse(stdout) as Record<string, unknown> };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, json: JSON.parse(e.stdout) as Record<string, unknown> };
  }
}

describe("audit chain", () => {
  it("verifies, refuses changes, and reports the first record altered by hand", async () => {
    for (let i = 0; i < 5; i++) {
      await recordAuditEvent({
        actor: namedActor("test"),
        action: "test.event",
        details: { i, nested: { b: 1, a: [2, 3] } },
      });
    }
    expect((await verifyAuditChain()).ok).toBe(true);
    const intact = await cliAuditVerify();
    expect(intact.code).toBe(0);
    expect(intact.json.ok).toBe(true);

    await expect(
      db().$executeRawUnsafe(`UPDATE audit_events SET actor = 'mallory' WHERE action = 'test.event'`),
    ).rejects.toThrow(/append-only/);
    await expect(db().$executeRawUnsafe(`DELETE FROM audit_events WHERE action = 'test.event'`)).rejects.toThrow(
      /append-only/,
    );

    const victim = await db().auditEvent.findFirstOrThrow({
      where: { action: "test.event" },
      orderBy: { id: "desc" },
      skip: 2,
    });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL session_replication_role = replica"); // what a superuser could do by hand
      await client.query("UPDATE audit_events SET details = '{\"i\": 99}' WHERE id = $1", [victim.id.toString()]);
      await client.query("COMMIT");
    } finally {
      await client.end();
    }

    const report = await verifyAuditChain();
    expect(report.ok).toBe(false);
    if (!report.ok) expect(report.brokenAt.id).toBe(victim.id.toString());
    const broken = await cliAuditVerify();
    expect(broken.code).toBe(1);
    expect(broken.json.ok).toBe(false);
    expect((broken.json.brokenAt as { id: string }).id).toBe(victim.id.toString());
  });
});
