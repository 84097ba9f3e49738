// Restoring a backup file: verified first, refused over existing data unless asked, then this release's
// schema applied and the rows loaded, sequences moved past them and jobs unlocked.
import { stat } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { deployMigrations } from "@/lib/db/migrate";
import { BackupError, readBackup, verifyBackup, type Header } from "@/lib/ops/backup-file";
import { connect, ident, listTables, qualified, SCHEMAS, sqlName, type TableSpec } from "@/lib/ops/backup-tables";
import { createIndexesAgain, dropSecondaryIndexes } from "@/lib/ops/restore-indexes";

// Rows per INSERT: large statements (a few MiB of JSON) spend the time on rows, not on round trips.
const INSERT_ROWS = 5_000;
const INSERT_BYTES = 4 * 2 ** 20;

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

/**
 * A backup is restored wholesale (users, password hashes, partners' keys, the audit log): a file that
 * group or others may write could have been changed by any of them, so it is refused before it is read.
 */
const writers = (mode: number) =>
  [mode & 0o020 ? "its group" : "", mode & 0o002 ? "other users" : ""].filter(Boolean).join(" and ");

/** Answers the file's size. */
async function refuseWritableByOthers(file: string): Promise<number> {
  const info = await stat(file).catch((err: NodeJS.ErrnoException) => {
    throw new BackupError(`cannot read ${file}: ${err.message}`);
  });
  if ((info.mode & 0o022) !== 0)
    throw new BackupError(
      `${file} can be written by ${writers(info.mode)} (mode ${(info.mode & 0o777).toString(8)}): ` +
        `anyone who could change it could change the restored users, keys and audit log. Check where it came from, then \`chmod 600 ${file}\` and restore again`,
    );
  return info.size;
}

export type RestoreSummary = { file: string; rows: Record<string, number>; replaced: boolean };
/**
 * How far a restore is: checking the whole file first, then loading its rows, then building the indexes set
 * aside for the load; rows so far of `totalRows` (known once the file is checked), the file's bytes read of
 * `fileBytes` (compressed), and while indexing, indexes built of `indexes`.
 */
export type RestoreProgress = {
  phase: "verifying" | "loading" | "indexing";
  rows: number;
  totalRows: number | null;
  bytesRead: number;
  fileBytes: number;
  indexesBuilt?: number;
  indexes?: number;
};

/**
 * Restores `file` into the database at `databaseUrl`: verified first (a corrupt file is refused before
 * anything is touched), refused over existing data unless `overwrite`, then this release's schema and the rows.
 */
export async function restoreBackup(
  databaseUrl: string,
  file: string,
  opts: { overwrite: boolean; codeMigrations: string[]; onProgress?: (p: RestoreProgress) => void },
): Promise<RestoreSummary> {
  const fileBytes = await refuseWritableByOthers(file);
  // The last state is told again every second, so that a step with no batches of its own (an index built
  // over millions of rows) still shows a line every few seconds and its time growing.
  let last: RestoreProgress | null = null;
  const heard = opts.onProgress;
  const report = heard && ((p: RestoreProgress) => heard((last = p)));
  const heartbeat = heard && setInterval(() => last && heard(last), 1_000);
  heartbeat?.unref();
  try {
    return await restoreReported(databaseUrl, file, { ...opts, fileBytes, report });
  } finally {
    clearInterval(heartbeat);
  }
}

async function restoreReported(
  databaseUrl: string,
  file: string,
  opts: { overwrite: boolean; codeMigrations: string[]; fileBytes: number; report?: (p: RestoreProgress) => void },
): Promise<RestoreSummary> {
  const { fileBytes, report } = opts;
  const { header, rows } = await verifyBackup(
    file,
    report && ((p) => report({ phase: "verifying", ...p, totalRows: null, fileBytes })),
  );
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
    const totalRows = Object.values(rows).reduce((n, r) => n + r, 0);
    await loadRows(client, file, header, report && ((p) => report({ phase: "loading", ...p, totalRows, fileBytes })));
    // The transfer log's hourly counts from the decisions just loaded: the rows were loaded without their
    // triggers where allowed, with them elsewhere, and a file from an earlier release has none.
    await client.query("SELECT rebuild_transfer_decision_hours()");
    // Fresh statistics for the planner: the loaded tables have none until autovacuum comes round.
    await client.query("ANALYZE");
    return { file: path.resolve(file), rows, replaced };
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * onProgress hears each batch inserted (the rows loaded and the file's bytes read so far), then each index
 * built again (with `phase: "indexing"`).
 */
async function loadRows(
  client: pg.Client,
  file: string,
  header: Header,
  onProgress?: (p: {
    rows: number;
    bytesRead: number;
    phase?: "indexing";
    indexesBuilt?: number;
    indexes?: number;
  }) => void,
): Promise<void> {
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
  // The index builds at the end sort in memory rather than in temporary files where they can.
  await client.query("SET LOCAL maintenance_work_mem = '256MB'");
  // The migrations' own bookkeeping rows are replaced by the backup's.
  for (const t of present.values()) {
    if (t.name === "_prisma_migrations" || (t.schema === "graphile_worker" && t.name === "migrations"))
      await client.query(`DELETE FROM ${sqlName(t)}`);
  }
  const indexes = await dropSecondaryIndexes(client);
  let table: TableSpec | null = null;
  // Rows as their JSON text from the file: json columns keep their exact text (a re-serialisation would not).
  let batch: string[] = [];
  let batchBytes = 0;
  let loaded = 0;
  let bytesRead = 0;
  // One INSERT in flight while the next batch is read and unzipped: the file and the server work side by side.
  let inFlight: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (!table || batch.length === 0) return;
    const target = present.get(qualified(table));
    if (!target)
      throw new BackupError(`the backup has table ${qualified(table)}, which this release's schema does not`);
    const columns = table.columns
      .filter((c) => target.columns.includes(c))
      .map(ident)
      .join(", ");
    const rows = `[${batch.join(",")}]`;
    const count = batch.length;
    batch = [];
    batchBytes = 0;
    await inFlight;
    const insert = client
      .query(
        `INSERT INTO ${sqlName(table)} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(null::${sqlName(table)}, $1::json)`,
        [rows],
      )
      .then(() => {
        loaded += count;
        onProgress?.({ rows: loaded, bytesRead });
      });
    insert.catch(() => {}); // awaited at the next flush or the end; not unhandled meanwhile
    inFlight = insert;
  };
  for await (const item of readBackup(file, (n) => (bytesRead = n), { rowsChecked: true })) {
    if (item.kind === "table") {
      await flush();
      table = specs.get(item.name) ?? null;
    } else if (item.kind === "row") {
      batch.push(item.line);
      batchBytes += item.line.length;
      if (batch.length >= INSERT_ROWS || batchBytes >= INSERT_BYTES) await flush();
    }
  }
  await flush();
  await inFlight;
  await createIndexesAgain(client, indexes, (built) =>
    onProgress?.({ rows: loaded, bytesRead, phase: "indexing", indexesBuilt: built, indexes: indexes.length }),
  );
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
