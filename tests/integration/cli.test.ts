// The admin command line as an operator's script uses it: real processes, --json on stdout, real
// PostgreSQL, and the keys it prints used over real HTTP.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { freshRequest, send, senderKey } from "@/tests/support/api";
import { connectTestEnvironment } from "@/tests/support/integration";
import { TEST_SECRETS } from "@/tests/support/server";

const { baseUrl, databaseUrl } = connectTestEnvironment();
const ROOT = path.resolve(import.meta.dirname, "../..");

type CliOutput = { code: number; json: Record<string, unknown>; stdout: string };

async function cli(...args: string[]): Promise<CliOutput> {
  const run = promisify(execFile);
  const options = {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "silent" },
  };
  let stdout: string;
  let code = 0;
  try {
    ({ stdout } = await run(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/cli.ts", ...args, "--json"],
      options,
    ));
  } catch (err) {
    const e = err as { code: number; stdout: string };
    code = e.code;
    stdout = e.stdout;
  }
  // The contract: exactly one JSON object on stdout, nothing else.
  expect(stdout.trim().split("\n")).toHaveLength(1);
  return { code, json: JSON.parse(stdout) as Record<string, unknown>, stdout };
}

describe("npm run cli", () => {
  it("creates a partner whose key works, lists it, rotates and revokes keys", async () => {
    const created = await cli(
      "partner",
      "create",
      "--name",
      "CLI Sender",
      "--callback-url",
      "https://cli-sender.example/cb",
    );
    expect(created.code).toBe(0);
    expect(Object.keys(created.json).sort()).toEqual([
      "apiKey",
      "clientId",
      "clientSecret",
      "partnerId",
      "webhookSecret",
    ]);
    const apiKey = created.json.apiKey as string;
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(apiKey) })).status).toBe(200);

    const list = await cli("partner", "list");
    const partners = list.json.partners as { partnerId: string; apiKeys: { keyId: string }[] }[];
    const mine = partners.find((p) => p.partnerId === created.json.partnerId);
    expect(mine?.apiKeys).toHaveLength(1);
    const keyId = mine!.apiKeys[0]!.keyId;

    const rotated = await cli("key", "rotate", keyId, "--overlap-hours", "1");
    expect(rotated.code).toBe(0);
    const newKey = rotated.json.apiKey as string;
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(newKey) })).status).toBe(200);
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(apiKey) })).status).toBe(200);

    expect((await cli("key", "revoke", keyId)).json).toEqual({ keyId, revoked: true });
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(apiKey) })).status).toBe(401);

    const another = await cli("key", "create", "--partner", created.json.partnerId as string);
    expect(
      (await send(baseUrl, { body: freshRequest(), authorization: senderKey(another.json.apiKey as string) })).status,
    ).toBe(200);

    expect((await cli("partner", "suspend", created.json.partnerId as string)).code).toBe(0);
    expect((await send(baseUrl, { body: freshRequest(), authorization: senderKey(newKey) })).status).toBe(401);

    const audited = await db().auditEvent.findMany({ where: { actor: "cli", action: { startsWith: "api_key." } } });
    expect(audited.map((a) => a.action)).toEqual(
      expect.arrayContaining(["api_key.rotated", "api_key.revoked", "api_key.created"]),
    );
  });

  it("creates users, refuses a duplicate, and never removes the last admin", async () => {
    const email = `admin-${randomUUID().slice(0, 8)}@pharmacy.test`;
    const created = await cli("user", "create", "--email", email, "--password", "a long password", "--role", "admin");
    expect(created.code).toBe(0);
    expect(created.json.userId).toMatch(/^usr_/);
    const duplicate = await cli("user", "create", "--email", email, "--password", "a long password", "--role", "admin");
    expect(duplicate.code).toBe(1);
    expect((duplicate.json.error as { code: string }).code).toBe("conflict");

    // Leave exactly one active admin, then try to demote and disable it.
    const admins = await db().user.findMany({ where: { role: "admin", disabledAt: null, email: { not: email } } });
    for (const a of admins) await cli("user", "disable", a.id);
    const demote = await cli("user", "role", email, "--role", "pharmacist");
    expect(demote.code).toBe(1);
    expect((demote.json.error as { message: string }).message).toContain("last active admin");
    expect((await cli("user", "disable", email)).code).toBe(1);
    for (const a of admins) await cli("user", "enable", a.id);
    // With a second active admin, demoting this one is allowed.
    const second = `admin2-${randomUUID().slice(0, 8)}@pharmacy.test`;
    expect(
      (await cli("user", "create", "--email", second, "--password", "a long password", "--role", "admin")).code,
    ).toBe(0);
    expect((await cli("user", "role", email, "--role", "pharmacist")).code).toBe(0);
  }, 150_000); // eight CLI processes, each a tsx start-up, a database connection and the key check

  it("answers bad usage with a JSON error and exit code 2", async () => {
    const bad = await cli("partner", "create", "--name", "No URL");
    expect(bad.code).toBe(2);
    expect((bad.json.error as { message: string }).message).toContain("--callback-url");
    const unknown = await cli("launch", "rockets");
    expect(unknown.code).toBe(2);
    const invalid = await cli("user", "create", "--email", "x@y.test", "--password", "short", "--role", "pharmacist");
    expect(invalid.code).toBe(1);
    expect((invalid.json.error as { code: string }).code).toBe("invalid_input");
  });

  it("manages this pharmacy's stores", async () => {
    const added = await cli("store", "add", "--name", "Riverside North", "--npi", "1558598797");
    expect(added.code).toBe(0);
    const stores = (await cli("store", "list")).json.stores as { npi: string }[];
    expect(stores.map((s) => s.npi)).toContain("1558598797");
    const badNpi = await cli("store", "add", "--name", "Wrong", "--npi", "1234567890");
    expect(badNpi.code).toBe(1);
  });
});
