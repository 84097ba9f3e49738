// A restore gives back every row as it was, over more rows than one insert holds: a table's full content
// compared row by row (JSONB with escapes, unicode and numbers as written, timestamps to the millisecond,
// arrays, NULLs), the indexes the load set aside built again with the migrations' definitions, and a load the
// rebuilt unique index refuses leaving no row behind (one transaction, all or nothing).
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { createDatabase } from "@/lib/db/migrate";
import { createBackup } from "@/lib/ops/backup";
import { tableFingerprints } from "@/lib/ops/backup-tables";
import { restoreBackup, type RestoreProgress } from "@/lib/ops/restore-backup";
import { createMigratedDatabase } from "@/tests/support/database";

// More than one INSERT's rows (INSERT_ROWS, 5 000), so that the load's batches and its table switches count.
const TRANSFERS = 12_000;
const adminUrl = inject("adminDatabaseUrl");
const dir = mkdtempSync(path.join(os.tmpdir(), "rx-backup-content-"));
const codeMigrations = readdirSync(path.join(process.cwd(), "prisma", "migrations"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
let sourceUrl: string;
let backupFile: string;

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

const transfersAsText = (url: string) =>
  query<{ row: string }>(url, "SELECT to_jsonb(t)::text AS row FROM transfers t ORDER BY id").then((r) =>
    r.map((x) => x.row),
  );
const indexes = (url: string) =>
  query<{ indexname: string; indexdef: string }>(
    url,
    "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname IN ('public', 'graphile_worker') ORDER BY indexname",
  );
const freshDatabase = (name: string) => createDatabase(adminUrl, `${name}_${Math.random().toString(16).slice(2, 10)}`);

beforeAll(async () => {
  sourceUrl = await createMigratedDatabase(adminUrl, "rx_backup_content");
  await installJobQueue(sourceUrl);
  await query(
    sourceUrl,
    `INSERT INTO partners (id, name, npis, callback_url, webhook_secret)
     VALUES ('prt_content', 'Zoë''s "Pharmacy" \\ Co', '{1234567893}', 'https://example.test/cb', 'sealed')`,
  );
  // Every row differs: a JSON request with escapes, unicode and numbers as the sender wrote them, times with
  // milliseconds, an array column, and NULLs where the columns allow them.
  await query(
    sourceUrl,
    `INSERT INTO transfers (id, partner_id, request_id, content_hash, status, active_rx_key, patient_first_name,
       patient_last_name, patient_search, patient_dob, sending_npi, sending_name, receiving_npi, rx_number,
       drug_name, drug_strength, has_allergies, check_flags, received_at, decided_at, request, response, response_id)
     SELECT 'trf_c' || lpad(i::text, 6, '0'), 'prt_content', 'req-' || i, md5(i::text),
            (CASE WHEN i % 3 = 0 THEN 'CONFIRMED' ELSE 'RECEIVED' END)::"TransferStatus",
            CASE WHEN i % 7 <> 0 THEN 'rx:' || i END, 'Zoë ' || i, 'O''Brien-Łukasz', 'o''brien zoë', date '1950-01-01' + i,
            '1234567893', 'Sender "A"', '1245319599', 'RX' || i, 'Atorvastatin 😀', '20 mg', i % 2 = 0,
            CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN '{}'::text[] ELSE ARRAY['expiry', 'quantity ' || i] END,
            timestamptz '2026-01-01 00:00:00.123+00' + make_interval(secs => i * 61.007),
            CASE WHEN i % 3 = 0 THEN timestamptz '2026-06-01 12:00:00.999+00' + make_interval(mins => i) END,
            jsonb_build_object('n', i, 'price', 1.10 * i, 'big', 12345678901234567890.5, 'note',
              E'line\\nbreak \\\\ "quoted" \\t tab ' || i, 'nested', jsonb_build_array(1, 'ü', NULL, true,
              jsonb_build_object('e', '')), 'empty', '{}'::jsonb),
            CASE WHEN i % 4 = 0 THEN '{}'::jsonb ELSE jsonb_build_object('answer', i) END, 'rsp_' || i
       FROM generate_series(1, $TRANSFERS) AS i`.replace("$TRANSFERS", String(TRANSFERS)),
  );
  backupFile = path.join(dir, "content.rxbackup.gz");
  await createBackup(sourceUrl, backupFile);
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("restore", () => {
  it("gives back a table's every row as it was, and the indexes as the migrations made them", async () => {
    const target = await freshDatabase("rx_content_to");
    const progress: RestoreProgress[] = [];
    const summary = await restoreBackup(target, backupFile, {
      overwrite: false,
      codeMigrations,
      onProgress: (p) => progress.push(p),
    });
    expect(summary.rows["public.transfers"]).toBe(TRANSFERS);
    const [before, after] = await Promise.all([transfersAsText(sourceUrl), transfersAsText(target)]);
    expect(after.length).toBe(TRANSFERS);
    expect(after).toEqual(before);
    expect(after[0]).toContain('"note": "line\\nbreak \\\\ \\"quoted\\" \\t tab 1"');
    expect(after[0]).toContain('"received_at": "2026-01-01T00:01:01.13+00:00"');
    expect(await tableFingerprints(target)).toEqual(await tableFingerprints(sourceUrl));
    expect(await indexes(target)).toEqual(await indexes(sourceUrl));
    // The set-aside indexes were built again, and said so.
    const indexing = progress.filter((p) => p.phase === "indexing");
    expect(indexing.length).toBeGreaterThan(0);
    expect(indexing.at(-1)!.indexesBuilt).toBe(indexing.at(-1)!.indexes);
  }, 180_000);

  it("loads nothing when a rebuilt unique index refuses the rows: one transaction", async () => {
    // The backup with two live transfers of one prescription (the unique active_rx_key), its checksum made
    // again: a file that verifies, whose rows the unique index refuses only once it is built after the load.
    const lines = gunzipSync(readFileSync(backupFile)).toString("utf8").split("\n").slice(0, -2);
    const duplicated = lines.map((line) => line.replace('"active_rx_key":"rx:2"', '"active_rx_key":"rx:1"'));
    expect(duplicated).not.toEqual(lines);
    const end = JSON.parse(gunzipSync(readFileSync(backupFile)).toString("utf8").split("\n").at(-2)!) as {
      sha256: string;
    };
    const body = duplicated.map((l) => `${l}\n`).join("");
    end.sha256 = createHash("sha256").update(body).digest("hex");
    const broken = path.join(dir, "duplicate.rxbackup.gz");
    writeFileSync(broken, gzipSync(`${body}${JSON.stringify(end)}\n`), { mode: 0o600 });

    const target = await freshDatabase("rx_content_dup");
    await expect(restoreBackup(target, broken, { overwrite: false, codeMigrations })).rejects.toThrow(
      /transfers_active_rx_key_key|duplicate key|could not create unique index/,
    );
    expect((await query<{ n: number }>(target, "SELECT count(*)::int AS n FROM transfers"))[0]!.n).toBe(0);
    expect((await query<{ n: number }>(target, "SELECT count(*)::int AS n FROM partners"))[0]!.n).toBe(0);
  }, 180_000);
});
