// The backup file: its format (gzip'd NDJSON: header, each table's rows, an end line with the counts and
// checksum), read back line by line and verified before anything is touched.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { qualified, type TableSpec } from "@/lib/ops/backup-tables";

export const BACKUP_FORMAT = "rx-transfer-backup";
export const FORMAT_VERSION = 1;

export type Header = { format: string; version: number; createdAt: string; migrations: string[]; tables: TableSpec[] };
export type EndLine = { end: true; rows: Record<string, number>; sha256: string };

export class BackupError extends Error {}

/**
 * Each line of a backup file in order, parsed; throws BackupError on anything that is not a complete, intact
 * backup. onRead hears the file's bytes read so far (compressed), chunk by chunk: a long read's progress.
 * `rowsChecked`: the file was verified already; its rows are not parsed again.
 */
export async function* readBackup(
  file: string,
  onRead?: (bytesRead: number) => void,
  opts: { rowsChecked?: boolean } = {},
): AsyncGenerator<
  | { kind: "header"; header: Header }
  | { kind: "table"; name: string }
  | { kind: "row"; line: string }
  | { kind: "end"; end: EndLine }
> {
  const input = createReadStream(file);
  if (onRead) input.on("data", () => onRead(input.bytesRead));
  const gunzip = createGunzip();
  const lines = createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity });
  // readline does not pass its input's errors on: an error of the file or of gunzip ends the lines and is
  // thrown after them. (Racing each line against a promise of the error kept every line reachable from that
  // never-settled promise: a whole file's rows in memory.)
  let failure: Error | null = null;
  const fail = (err: Error) => {
    failure ??= err;
    lines.close();
  };
  input.once("error", fail);
  gunzip.once("error", (err) => fail(new BackupError(`${file} is not a readable backup (${err.message})`)));
  const hash = createHash("sha256");
  let first = true;
  let ended = false;
  try {
    for await (const line of lines) {
      if (failure) break;
      if (ended) throw new BackupError(`${file} has data after its end line`);
      // A file verifyBackup has read whole: its rows are known to be JSON, and a row is passed on as its
      // text, so only the lines that may be a table's start or the end are parsed (the checksum still is).
      if (opts.rowsChecked && !first && !line.startsWith('{"table":') && !line.startsWith('{"end":')) {
        hash.update(`${line}\n`);
        yield { kind: "row", line };
        continue;
      }
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
    if (failure) throw failure;
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

/**
 * Reads the whole file and checks it (format, checksum, row counts) without touching any database.
 * onProgress hears the rows and the file's bytes read so far, a chunk of the file at a time.
 */
export async function verifyBackup(
  file: string,
  onProgress?: (p: { rows: number; bytesRead: number }) => void,
): Promise<{ header: Header; rows: Record<string, number> }> {
  let header: Header | null = null;
  let current: string | null = null;
  const counted: Record<string, number> = {};
  let end: EndLine | null = null;
  let rows = 0;
  const onRead = onProgress && ((bytesRead: number) => onProgress({ rows, bytesRead }));
  for await (const item of readBackup(file, onRead)) {
    if (item.kind === "header") header = item.header;
    else if (item.kind === "table") counted[(current = item.name)] = 0;
    else if (item.kind === "row") {
      if (current === null) throw new BackupError(`${file} is corrupt: a row before any table`);
      counted[current]! += 1;
      rows++;
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
