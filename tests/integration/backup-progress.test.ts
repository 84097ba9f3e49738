// A backup and a restore say how far they are while they run: createBackup hears each batch of rows fetched
// (rows and the file's bytes growing), restoreBackup hears the file being checked, then each batch loaded,
// up to every row in the file, then each index built again. The CLI turns these into a line every few seconds (lib/cli/backup-progress.ts).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { createDatabase } from "@/lib/db/migrate";
import { createBackup, type BackupProgress } from "@/lib/ops/backup";
import { restoreBackup, type RestoreProgress } from "@/lib/ops/restore-backup";
import { createMigratedDatabase } from "@/tests/support/database";

const USERS = 2_600;
const adminUrl = inject("adminDatabaseUrl");
const dir = mkdtempSync(path.join(os.tmpdir(), "rx-backup-progress-"));
let sourceUrl: string;

beforeAll(async () => {
  sourceUrl = await createMigratedDatabase(adminUrl, "rx_backup_progress");
  await installJobQueue(sourceUrl);
  const client = new pg.Client({ connectionString: sourceUrl });
  await client.connect();
  await client.query(
    `INSERT INTO users (id, email, name, password_hash, role)
     SELECT 'usr_p' || i, 'p' || i || '@pharmacy.test', 'P ' || i, 'x', 'pharmacist' FROM generate_series(1, $1::int) i`,
    [USERS],
  );
  await client.end();
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("backup and restore progress", () => {
  it("reports rows and bytes as a backup is written, and as it is checked and loaded again", async () => {
    const file = path.join(dir, "rx.rxbackup.gz");
    const backup: BackupProgress[] = [];
    const summary = await createBackup(sourceUrl, file, { onProgress: (p) => backup.push(p) });
    const total = Object.values(summary.rows).reduce((n, r) => n + r, 0);
    expect(total).toBeGreaterThan(USERS);
    // One report a fetched batch (1000 rows): the users table alone takes three.
    expect(backup.filter((p) => p.table === "public.users").length).toBeGreaterThanOrEqual(3);
    for (const [i, p] of backup.entries()) if (i > 0) expect(p.rows).toBeGreaterThanOrEqual(backup[i - 1]!.rows);
    expect(backup.at(-1)!.rows).toBe(total);
    expect(backup.at(-1)!.bytes).toBeGreaterThan(0);

    const target = await createDatabase(adminUrl, `rx_progress_to_${Math.random().toString(16).slice(2, 10)}`);
    const restore: RestoreProgress[] = [];
    await restoreBackup(target, file, {
      overwrite: false,
      codeMigrations: readdirSync(path.join(process.cwd(), "prisma", "migrations"), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name),
      onProgress: (p) => restore.push(p),
    });
    const verifying = restore.filter((p) => p.phase === "verifying");
    const loading = restore.filter((p) => p.phase === "loading");
    expect(verifying.length).toBeGreaterThan(0);
    expect(verifying.at(-1)!.bytesRead).toBe(summary.bytes);
    expect(restore.indexOf(loading[0]!)).toBeGreaterThan(restore.indexOf(verifying.at(-1)!));
    // A report a batch inserted (up to 5 000 rows), growing to every row of the file, of the total it announced.
    expect(loading.length).toBeGreaterThan(0);
    for (const [i, p] of loading.entries()) if (i > 0) expect(p.rows).toBeGreaterThanOrEqual(loading[i - 1]!.rows);
    expect(loading.at(-1)!.rows).toBe(total);
    // Then the indexes set aside for the load, built again one by one.
    const indexing = restore.filter((p) => p.phase === "indexing");
    expect(indexing.length).toBeGreaterThan(0);
    expect(restore.indexOf(indexing[0]!)).toBeGreaterThan(restore.indexOf(loading.at(-1)!));
    expect(indexing.at(-1)).toMatchObject({ rows: total, indexesBuilt: indexing.at(-1)!.indexes });
    expect(loading.every((p) => p.totalRows === total && p.fileBytes === summary.bytes)).toBe(true);
  }, 120_000);
});
