// A long backup or restore shows how far it is: a line on stderr every few seconds with the rows and bytes
// done, so an operator (or a cron job's log) sees a large database's backup move instead of minutes of
// silence. stdout keeps the command's answer alone (scripts read it with --json). A short run prints none.
import type { BackupProgress } from "@/lib/ops/backup";
import type { RestoreProgress } from "@/lib/ops/restore-backup";

export const PROGRESS_EVERY_MS = 5_000;

/**
 * A reporter that writes `format(p, elapsedMs)` as a line at most once every `everyMs`, the first once
 * `everyMs` has passed since it was made.
 */
export function everyFewSeconds<T>(
  write: (line: string) => void,
  format: (p: T, elapsedMs: number) => string,
  opts: { everyMs?: number; now?: () => number } = {},
): (p: T) => void {
  const now = opts.now ?? Date.now;
  const everyMs = opts.everyMs ?? PROGRESS_EVERY_MS;
  const started = now();
  let next = started + everyMs;
  return (p) => {
    const t = now();
    if (t < next) return;
    next = t + everyMs;
    write(`${format(p, t - started)}\n`);
  };
}

function size(bytes: number): string {
  return bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(2)} GiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
const percent = (part: number, whole: number) => `${whole > 0 ? Math.floor((part / whole) * 100) : 100} %`;

export function backupProgressLine(p: BackupProgress, elapsedMs: number): string {
  return `backup: ${p.rows.toLocaleString("en-US")} rows written (now ${p.table}), ${size(p.bytes)}, ${seconds(elapsedMs)}`;
}

export function restoreProgressLine(p: RestoreProgress, elapsedMs: number): string {
  if (p.phase === "verifying")
    return `restore: checking the file, ${percent(p.bytesRead, p.fileBytes)} read (${size(p.bytesRead)} of ${size(p.fileBytes)}, ${p.rows.toLocaleString("en-US")} rows), ${seconds(elapsedMs)}`;
  if (p.phase === "indexing")
    return `restore: building indexes, ${p.indexesBuilt ?? 0} of ${p.indexes ?? 0} (${p.rows.toLocaleString("en-US")} rows loaded), ${seconds(elapsedMs)}`;
  const of = p.totalRows === null ? "" : ` of ${p.totalRows.toLocaleString("en-US")} (${percent(p.rows, p.totalRows)})`;
  return `restore: loading, ${p.rows.toLocaleString("en-US")} rows${of}, ${seconds(elapsedMs)}`;
}
