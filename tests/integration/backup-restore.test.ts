// Backups: `npm run cli -- backup` of a database with partners, transfers, a decision whose callback is
// still pending and an audit trail; `restore` into a fresh database; the same rows and content in every
// table; `audit verify` passes; a server on the restored database answers the sender's status lookup and
// delivers the pending callback, signed with the partner's secret. And the failures: an unwritable path,
// a corrupt or truncated file, a database that already holds data.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { createDatabase } from "@/lib/db/migrate";
import { disconnectDb } from "@/lib/db/prisma";
import { setEnv } from "@/lib/env";
import { tableFingerprints } from "@/lib/ops/backup-tables";
import type { CreatedPartner } from "@/lib/partners/create-partner";
import { ensureConfiguredStore } from "@/lib/stores/store-npis";
import { createCallbackPartner, decideTransfer, type DecidedTransfer } from "@/tests/integration/callbacks-fixtures";
import { freshRequest, senderKey } from "@/tests/support/api";
import { startCallbackReceiver, verifyStandardWebhook, type CallbackReceiver } from "@/tests/support/callback-receiver";
import { createMigratedDatabase } from "@/tests/support/database";
import { connectTestEnvironment } from "@/tests/support/integration";
import { runCli, type CliRun } from "@/tests/support/cli";
import { startTestServer, TEST_SECRETS } from "@/tests/support/server";
import { receiveTransfer } from "@/lib/transfers/intake";

connectTestEnvironment();
const adminUrl = inject("adminDatabaseUrl");
const dir = mkdtempSync(path.join(os.tmpdir(), "rx-backup-"));
let sourceUrl: string;
let receiver: CallbackReceiver;
let partner: CreatedPartner;
let decided: DecidedTransfer;
let backupFile: string;

/** The CLI for real, with the run's keys (the source's secrets were sealed and its audit keyed with them). */
function cli(databaseUrl: string, ...args: string[]): Promise<CliRun> {
  return runCli(args, { DATABASE_URL: databaseUrl, ...TEST_SECRETS });
}

async function serverVersionNum(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number(
      (await client.query<{ server_version_num: string }>("SHOW server_version_num")).rows[0]!.server_version_num,
    );
  } finally {
    await client.end();
  }
}

const emptyDatabase = (name: string) => createDatabase(adminUrl, `${name}_${Math.random().toString(16).slice(2, 10)}`);

beforeAll(async () => {
  receiver = await startCallbackReceiver();
  receiver.script("/cb", [{ status: 204 }]);
  // The source: its own database, no worker on it, so the decision's callback stays PENDING in the backup.
  sourceUrl = await createMigratedDatabase(adminUrl, "rx_backup_src");
  await installJobQueue(sourceUrl);
  await disconnectDb();
  setEnv({ DATABASE_URL: sourceUrl });
  await ensureConfiguredStore();
  partner = await createCallbackPartner(`${receiver.baseUrl}/cb`);
  decided = await decideTransfer({ partner, decision: "CONFIRMED" });
  const pending = await receiveTransfer(partner.partnerId, freshRequest());
  expect(pending.kind).toBe("created");
  await disconnectDb();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("npm run cli -- backup", () => {
  it("writes one file and reports its size and the main tables' row counts", async () => {
    backupFile = path.join(dir, "nightly", "rx.rxbackup.gz");
    const out = await cli(sourceUrl, "backup", "--out", backupFile);
    expect(out.code).toBe(0);
    expect(out.json.file).toBe(backupFile);
    expect(out.json.bytes).toBeGreaterThan(1000);
    const rows = out.json.rows as Record<string, number>;
    expect(rows["public.transfers"]).toBe(2);
    expect(rows["public.callbacks"]).toBe(1);
    expect(rows["public.partners"]).toBe(1);
    expect(rows["public.audit_events"]).toBeGreaterThan(0);
    expect(rows["graphile_worker._private_jobs"]).toBe(1);
    // Nothing but the backup in its directory: the temporary file was renamed.
    expect(readdirSync(path.dirname(backupFile))).toEqual(["rx.rxbackup.gz"]);
    // Patient data: the file is the owner's only, and so is the folder made for it.
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(backupFile)).mode & 0o777).toBe(0o700);
  }, 60_000);

  it("to an unwritable path fails with a clear message and leaves no file", async () => {
    const target = path.join(dir, "a-file");
    writeFileSync(target, "not a directory");
    const out = await cli(sourceUrl, "backup", "--out", path.join(target, "rx.rxbackup.gz"));
    expect(out.code).toBe(1);
    expect((out.json.error as { message: string }).message).toMatch(
      /^cannot write the backup to .*a-file\/rx\.rxbackup\.gz: /,
    );
    expect(readFileSync(target, "utf8")).toBe("not a directory");
  }, 60_000);
});

describe("npm run cli -- backup --pg-dump", () => {
  it("with a pg_dump older than the server says so plainly and leaves no file", async () => {
    const version = spawnSync("pg_dump", ["--version"], { encoding: "utf8" });
    const server = await serverVersionNum(sourceUrl);
    const client = Number(/(\d+)\./.exec(version.stdout ?? "")?.[1] ?? 0);
    const target = path.join(dir, "dumps", "rx.dump");
    const out = await cli(sourceUrl, "backup", "--pg-dump", "--out", target);
    if (version.status !== 0) {
      expect((out.json.error as { message: string }).message).toMatch(/pg_dump is not installed/);
    } else if (client < Math.floor(server / 10000)) {
      expect(out.code).toBe(1);
      expect((out.json.error as { message: string }).message).toMatch(
        /^pg_dump [\d.]+ cannot dump a PostgreSQL [\d.]+ server/,
      );
      expect(existsSync(target)).toBe(false);
    } else {
      expect(out.code).toBe(0);
      expect(out.json.bytes).toBeGreaterThan(0);
    }
    expect(readdirSync(path.join(dir, "dumps")).filter((f) => f !== "rx.dump")).toEqual([]);
  }, 60_000);
});

describe("npm run cli -- restore", () => {
  it("refuses a corrupt or truncated file before touching the database", async () => {
    const target = await emptyDatabase("rx_backup_corrupt");
    const bytes = readFileSync(backupFile);
    const truncated = path.join(dir, "truncated.rxbackup.gz");
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const flipped = Buffer.from(bytes);
    const middle = Math.floor(bytes.length / 2);
    flipped[middle] = (flipped[middle] ?? 0) ^ 0xff;
    const corrupt = path.join(dir, "corrupt.rxbackup.gz");
    writeFileSync(corrupt, flipped);
    const notGzip = path.join(dir, "plain.rxbackup.gz");
    writeFileSync(notGzip, "hello\n");
    for (const file of [truncated, corrupt, notGzip, path.join(dir, "missing.gz")]) {
      const out = await cli(target, "restore", file);
      expect(out.code, file).toBe(1);
      expect((out.json.error as { message: string }).message, file).toMatch(
        /corrupt|incomplete|not a readable backup|not an rx-transfer backup|cannot read/,
      );
    }
    // Not even the schema was created.
    expect(Object.keys(await tableFingerprints(target))).toEqual([]);
  }, 120_000);

  it("refuses a file that group or others may write, saying why, before touching the database", async () => {
    const target = await emptyDatabase("rx_backup_writable");
    const writable = path.join(dir, "writable.rxbackup.gz");
    copyFileSync(backupFile, writable);
    for (const [mode, who] of [
      [0o620, "its group"],
      [0o602, "other users"],
      [0o666, "its group and other users"],
    ] as const) {
      chmodSync(writable, mode);
      const out = await cli(target, "restore", writable);
      expect(out.code).toBe(1);
      expect((out.json.error as { message: string }).message).toBe(
        `${writable} can be written by ${who} (mode ${mode.toString(8)}): anyone who could change it could change the restored users, keys and audit log. Check where it came from, then \`chmod 600 ${writable}\` and restore again`,
      );
    }
    expect(Object.keys(await tableFingerprints(target))).toEqual([]);
  }, 120_000);

  it("restores into a fresh database: same rows and content in every table, the audit chain intact", async () => {
    const target = await emptyDatabase("rx_backup_restored");
    const out = await cli(target, "restore", backupFile);
    expect(out.code, JSON.stringify(out.json)).toBe(0);
    expect(out.json.replaced).toBe(false);
    const [before, after] = await Promise.all([tableFingerprints(sourceUrl), tableFingerprints(target)]);
    expect(Object.keys(after).length).toBeGreaterThan(10);
    expect(after).toEqual(before);
    const verify = await cli(target, "audit", "verify");
    expect(verify.code).toBe(0);
    expect(verify.json.ok).toBe(true);

    // Over data: refused without --yes, and the data stays; with --yes, replaced by the backup's.
    const refused = await cli(target, "restore", backupFile);
    expect(refused.code).toBe(1);
    expect((refused.json.error as { message: string }).message).toMatch(/the database is not empty .*--yes/);
    const again = await cli(target, "restore", backupFile, "--yes");
    expect(again.code).toBe(0);
    expect(again.json.replaced).toBe(true);
    expect(await tableFingerprints(target)).toEqual(before);

    // The restored service: the sender's status lookup, and the pending callback delivered and signed.
    const server = await startTestServer({ databaseUrl: target });
    try {
      const lookup = await fetch(`${server.baseUrl}/v1/transfer/${decided.transferId}`, {
        headers: { authorization: senderKey(partner.apiKey) },
      });
      expect(lookup.status).toBe(200);
      expect(((await lookup.json()) as { metadata: { responseType: string } }).metadata.responseType).toBe("CONFIRMED");
      const [callback] = await receiver.waitFor("/cb", 1, 30_000);
      expect(callback!.headers["webhook-id"]).toBe(decided.callbackId);
      expect(verifyStandardWebhook(callback!, partner.webhookSecret)).toBe(true);
    } finally {
      await server.stop();
    }
    expect(existsSync(backupFile)).toBe(true);
  }, 180_000);
});
