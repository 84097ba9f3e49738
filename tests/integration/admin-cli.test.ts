// The admin screens' operations that the CLI gained with them (partner show / update, audit list / export),
// as an operator's script runs them: real processes, one JSON object on stdout, audited as "cli".
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { createTestPartner, freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { TEST_SECRETS } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();
const ROOT = path.resolve(import.meta.dirname, "../..");

async function cli(...args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  const options = {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "silent" },
  };
  let stdout: string;
  let code = 0;
  try {
    ({ stdout } = await promisify(execFile)(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/cli.ts", ...args, "--json"],
      options,
    ));
  } catch (err) {
    const e = err as { code: number; stdout: string };
    code = e.code;
    stdout = e.stdout;
  }
  expect(stdout.trim().split("\n")).toHaveLength(1);
  return { code, json: JSON.parse(stdout) as Record<string, unknown> };
}

describe("npm run cli (admin screens' operations)", () => {
  it("shows a partner with its traffic, and updates its name and NPIs", async () => {
    const partner = await createTestPartner("CLI Show");
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(partner.apiKey) })).status).toBe(200);

    const shown = await cli("partner", "show", partner.partnerId);
    expect(shown.code).toBe(0);
    expect(shown.json).toMatchObject({
      partnerId: partner.partnerId,
      traffic: { last24h: 1, last7d: 1 },
      callbacks: { state: "ok" },
    });
    expect(JSON.stringify(shown.json)).not.toContain(partner.apiKey);
    expect((await cli("partner", "show", "prt_nope")).json).toMatchObject({ error: { code: "not_found" } });

    const updated = await cli(
      "partner",
      "update",
      partner.partnerId,
      "--name",
      "CLI Renamed",
      "--npi",
      "1234567893",
      "--npi",
      "1558598797",
    );
    expect(updated.code).toBe(0);
    expect(updated.json).toEqual({
      partnerId: partner.partnerId,
      name: "CLI Renamed",
      npis: ["1234567893", "1558598797"],
    });
    const bad = await cli("partner", "update", partner.partnerId, "--npi", "1234567890");
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({ error: { code: "invalid_input" } });
    expect((await cli("partner", "update", partner.partnerId)).code).toBe(2);
    const cleared = await cli("partner", "update", partner.partnerId, "--clear-npis");
    expect(cleared.json).toMatchObject({ npis: [] });
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "partner.updated", actor: "cli" },
      orderBy: { id: "desc" },
    });
    expect(audit.details).toMatchObject({ partnerId: partner.partnerId, npis: [] });
  });

  it("lists the audit log with filters and pages, and exports it as CSV (the export itself audited)", async () => {
    const partner = await createTestPartner("CLI Audit");
    await cli("partner", "update", partner.partnerId, "--name", "CLI Audit Renamed");

    const page = await cli("audit", "list", "--action", "partner.*", "--user", "cli", "--limit", "2");
    expect(page.code).toBe(0);
    const items = page.json.items as { id: string; action: string; actor: string }[];
    expect(items).toHaveLength(2);
    expect(items.every((e) => e.action.startsWith("partner.") && e.actor === "cli")).toBe(true);
    expect(page.json.nextCursor).toBe(items[1]!.id);
    const next = await cli(
      "audit",
      "list",
      "--action",
      "partner.*",
      "--user",
      "cli",
      "--limit",
      "2",
      "--cursor",
      items[1]!.id,
    );
    expect((next.json.items as { id: string }[]).every((e) => BigInt(e.id) < BigInt(items[1]!.id))).toBe(true);
    expect((await cli("audit", "list", "--from", "not-a-date")).json).toMatchObject({
      error: { code: "invalid_input" },
    });

    const exported = await cli("audit", "export", "--action", "partner.updated", "--user", "cli");
    expect(exported.code).toBe(0);
    const lines = (exported.json.csv as string).split("\r\n").filter(Boolean);
    expect(lines[0]).toMatch(/^"id","at","actor"/);
    expect(lines.length - 1).toBe(exported.json.records);
    expect(lines.some((l) => l.includes("CLI Audit Renamed"))).toBe(true);
    expect(await db().auditEvent.count({ where: { action: "audit.exported", actor: "cli" } })).toBeGreaterThan(0);
  });
});
