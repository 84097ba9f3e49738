// Stored secrets under a new DATA_ENCRYPTION_KEY: `npm run cli -- secrets rotate-key` re-seals every one
// (values in the first format, v1, included) with no loss, all or nothing, audited; a process with the wrong
// key is refused at start with a message that names the cause.
import { spawn } from "node:child_process";
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SYSTEM_ACTOR } from "@/lib/audit/actor";
import { openSecret, sealedKeyId, secretOwner } from "@/lib/crypto/secret-box";
import { db, disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { createPartner } from "@/lib/partners/create-partner";
import { rotateWebhookSecret } from "@/lib/partners/rotate-webhook-secret";
import { setPartnerOutboundCredential } from "@/lib/partners/set-partner-outbound-credential";
import { checkStoredSecrets, rotateStoredSecrets } from "@/lib/partners/sealed-secrets";
import { runCli } from "@/tests/support/cli";
import { createMigratedDatabase } from "@/tests/support/database";
import { freePort, TEST_SECRETS } from "@/tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");

const OLD_KEY = randomBytes(32).toString("base64");
const NEW_KEY = randomBytes(32).toString("base64");

let url: string;
/** partnerId → its secrets in plain text, as the partner holds them. */
const plain = new Map<string, { webhook: string; previous?: string; header?: string }>();

function useKeys(current: string, previous?: string): void {
  setEnv({
    DATABASE_URL: url,
    ...TEST_SECRETS,
    DATA_ENCRYPTION_KEY: current,
    DATA_ENCRYPTION_KEY_PREVIOUS: previous ?? "",
    CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
    LOG_LEVEL: "warn",
  });
}

/** A value as the first format sealed it: format v1, SHA-256 of DATA_ENCRYPTION_KEY, no owner binding. */
function sealV1(text: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", createHash("sha256").update(secret).digest(), iv);
  const body = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return `enc:v1:${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${body.toString("base64")}`;
}

async function storedSecrets() {
  return db().partner.findMany({
    select: { id: true, webhookSecret: true, previousWebhookSecret: true, outboundHeaderValue: true },
    orderBy: { id: "asc" },
  });
}

async function expectEverySecretOpens(): Promise<void> {
  for (const p of await storedSecrets()) {
    const want = plain.get(p.id)!;
    expect(openSecret(p.webhookSecret, secretOwner.webhookSecret(p.id))).toBe(want.webhook);
    if (want.previous)
      expect(openSecret(p.previousWebhookSecret!, secretOwner.webhookSecret(p.id))).toBe(want.previous);
    if (want.header) expect(openSecret(p.outboundHeaderValue!, secretOwner.outboundHeader(p.id))).toBe(want.header);
  }
}

const cli = (args: string[], current: string, previous?: string) =>
  runCli(args, {
    DATABASE_URL: url,
    ...TEST_SECRETS,
    DATA_ENCRYPTION_KEY: current,
    DATA_ENCRYPTION_KEY_PREVIOUS: previous,
  });

beforeAll(async () => {
  url = await createMigratedDatabase(inject("adminDatabaseUrl"), "rx_rotate");
  useKeys(OLD_KEY);
  for (let i = 0; i < 3; i++) {
    const p = await createPartner({ name: `Rotation ${i}`, callbackUrl: `https://rotation-${i}.example/cb`, npis: [] });
    plain.set(p.partnerId, { webhook: p.webhookSecret });
  }
  const [first, second, third] = [...plain.keys()] as [string, string, string];
  const rotated = await rotateWebhookSecret({ partnerId: first, overlapHours: 24, actor: SYSTEM_ACTOR });
  plain.set(first, { webhook: rotated.webhookSecret, previous: plain.get(first)!.webhook });
  await setPartnerOutboundCredential({
    partnerId: second,
    header: { name: "Authorization", value: "Bearer partner-token" },
    actor: SYSTEM_ACTOR,
  });
  plain.set(second, { ...plain.get(second)!, header: "Bearer partner-token" });
  // A partner whose secrets are still in the old format (format v1).
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    "UPDATE partners SET webhook_secret = $2, outbound_header_name = 'X-Token', outbound_header_value = $3 WHERE id = $1",
    [third, sealV1(plain.get(third)!.webhook, OLD_KEY), sealV1("legacy-token", OLD_KEY)],
  );
  await client.end();
  plain.set(third, { ...plain.get(third)!, header: "legacy-token" });
});

afterAll(async () => {
  await disconnectDb();
});

describe("secrets rotate-key", () => {
  it("a process with the wrong DATA_ENCRYPTION_KEY is refused at start, naming the likely cause", async () => {
    const wrong = await cli(["partner", "list"], NEW_KEY);
    expect(wrong.code).toBe(1);
    expect((wrong.json.error as { code: string; message: string }).code).toBe("key_mismatch");
    expect((wrong.json.error as { message: string }).message).toMatch(
      /sealed under another DATA_ENCRYPTION_KEY.*must share DATA_ENCRYPTION_KEY/,
    );
  });

  it("npm start with the wrong DATA_ENCRYPTION_KEY exits at start, naming the likely cause", async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      // The demo pharmacy's NPI, which the fixtures send to (npm start refuses it otherwise).
      ALLOW_DEMO_PHARMACY: "true",
      PORT: String(await freePort()),
      DATABASE_URL: url,
      ...TEST_SECRETS,
      DATA_ENCRYPTION_KEY: NEW_KEY,
      LOG_LEVEL: "warn",
    };
    delete env.DATA_ENCRYPTION_KEY_PREVIOUS;
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    clearTimeout(timer);
    expect(code, output).toBe(1);
    expect(output).toMatch(/could not start: .*sealed under another DATA_ENCRYPTION_KEY/);
    expect(output).not.toContain("ready on");
  });

  it("fails as a whole, changing nothing, when one secret does not open", async () => {
    useKeys(NEW_KEY, OLD_KEY);
    const before = await storedSecrets();
    const victim = before[before.length - 1]!; // the last one re-sealed: the others were re-sealed before it failed
    const donor = before.find((p) => p.id !== victim.id && p.webhookSecret.startsWith("enc:v2:"))!;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // Another partner's sealed value copied into this row: bound to its owner, it does not open here.
    await client.query("UPDATE partners SET outbound_header_value = $2 WHERE id = $1", [
      victim.id,
      donor.webhookSecret,
    ]);
    try {
      await expect(rotateStoredSecrets(SYSTEM_ACTOR)).rejects.toThrow(/belongs to another owner/);
      const after = await storedSecrets();
      expect(after.filter((p) => p.id !== victim.id)).toEqual(before.filter((p) => p.id !== victim.id));
      expect(await db().auditEvent.count({ where: { action: "secrets.rotated" } })).toBe(0);
    } finally {
      await client.query("UPDATE partners SET outbound_header_value = $2 WHERE id = $1", [
        victim.id,
        victim.outboundHeaderValue,
      ]);
      await client.end();
    }
  });

  it("re-seals every stored secret under the new key with no loss, reports counts, and is audited", async () => {
    const result = await cli(["secrets", "rotate-key"], NEW_KEY, OLD_KEY);
    expect(result.code, result.stderr).toBe(0);
    // 3 webhook secrets, 1 previous webhook secret, 2 outbound credentials.
    expect(result.json).toMatchObject({ partners: 3, secrets: 6, resealed: 6, alreadyCurrent: 0 });

    useKeys(NEW_KEY); // the old key is no longer needed
    for (const p of await storedSecrets()) {
      for (const value of [p.webhookSecret, p.previousWebhookSecret, p.outboundHeaderValue]) {
        if (value !== null) expect(sealedKeyId(value)).toBe(result.json.keyId);
      }
    }
    await expectEverySecretOpens();
    expect(await checkStoredSecrets()).toEqual({ secrets: 6, underCurrentKey: 6 });
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "secrets.rotated" } });
    expect(audit.details).toMatchObject({ resealed: 6, secrets: 6 });

    const again = await cli(["secrets", "rotate-key"], NEW_KEY);
    expect(again.json).toMatchObject({ resealed: 0, alreadyCurrent: 6 });
    const old = await cli(["partner", "list"], OLD_KEY);
    expect(old.code).toBe(1);
    expect((old.json.error as { message: string }).message).toMatch(/sealed under another DATA_ENCRYPTION_KEY/);
  });
});
