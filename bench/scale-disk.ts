// The disk the scale part (`--only scale`: bench/scale.ts, at 5 000 000 transfers) needs,
// checked before it seeds anything, so that a short disk skips the part with a message instead of filling the
// disk under the embedded PostgreSQL (and everyone else's work on the machine) an hour in.
import { statfsSync } from "node:fs";
import os from "node:os";

export const SCALE_TRANSFERS = 5_000_000;

/**
 * The database's size per seeded transfer, indexes, TOAST and the decided ones' decision rows included (the
 * template request is ~3 KB of JSON per row): pg_database_size after the seeding's VACUUM (ANALYZE) was 3.08 GiB
 * at 1 000 000 without decision rows, 0.68 GiB at 203 602 with them.
 */
export const BYTES_PER_TRANSFER = 3_570;
/** The `cli backup` file per transfer (gzip'd JSON lines; decisions included): 115 bytes at 200 000. */
export const BACKUP_BYTES_PER_TRANSFER = 120;
/**
 * Besides the data: WAL during the bulk inserts, the vacuum and the restore's one transaction, and the rest of
 * the run (~2 GB here). The restore goes over the same database (its schema dropped first): no second copy.
 */
const OVERHEAD_BYTES = 4 * 2 ** 30;

export type ScaleDisk = { transfers: number; needBytes: number; freeBytes: number | null; where: string };

/**
 * What seeding `transfers` needs and what the disk under the embedded database has (null when the database
 * is an outside server, whose disk this process cannot see).
 */
export function scaleDisk(transfers: number, externalDatabase: boolean): ScaleDisk {
  const needBytes = Math.round(transfers * (BYTES_PER_TRANSFER * 1.2 + BACKUP_BYTES_PER_TRANSFER) + OVERHEAD_BYTES);
  if (externalDatabase) return { transfers, needBytes, freeBytes: null, where: "the DATABASE_URL server" };
  const where = os.tmpdir();
  const fs = statfsSync(where);
  return { transfers, needBytes, freeBytes: fs.bavail * fs.bsize, where };
}

export function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
}

/** MiB below a GiB (a small run's backup file), GiB above. */
export function size(bytes: number): string {
  return bytes < 2 ** 30 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 2 ** 30).toFixed(2)} GiB`;
}
