// A backup file is read a line at a time: the check and the load of a chain's millions of rows must not hold
// the rows already read.
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import { createGzip, constants } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKUP_FORMAT, FORMAT_VERSION, readBackup, verifyBackup } from "@/lib/ops/backup-file";

const ROWS = 50_000;
const ROW_BYTES = 4_000;
const MIB = 2 ** 20;

/** A valid backup of one table: ROWS rows of about ROW_BYTES each (200 MB of text, a few MB gzip'd). */
async function writeBackup(file: string): Promise<void> {
  const gzip = createGzip({ level: constants.Z_BEST_SPEED });
  const out = gzip.pipe(createWriteStream(file));
  const hash = createHash("sha256");
  const put = async (line: string, hashed = true) => {
    if (hashed) hash.update(`${line}\n`);
    if (!gzip.write(`${line}\n`)) await once(gzip, "drain");
  };
  const table = { schema: "public", name: "notes", columns: ["id", "body"] };
  await put(
    JSON.stringify({ format: BACKUP_FORMAT, version: FORMAT_VERSION, createdAt: "", migrations: [], tables: [table] }),
  );
  await put(JSON.stringify({ table: "public.notes" }));
  const filler = "abcdefghij".repeat(ROW_BYTES / 10);
  for (let i = 0; i < ROWS; i++) await put(JSON.stringify({ id: i, body: `${i}:${filler}` }));
  await put(JSON.stringify({ end: true, rows: { "public.notes": ROWS }, sha256: hash.digest("hex") }), false);
  gzip.end();
  await once(out, "finish");
}

/** The most the heap grew above where it started while `read` ran, sampled as the file is read. */
async function heapGrowth(read: (sample: () => void) => Promise<void>): Promise<number> {
  const start = process.memoryUsage().heapUsed;
  let peak = start;
  await read(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  });
  return peak - start;
}

describe("reading a backup file", () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "rx-backup-file-"));
    file = path.join(dir, "big.backup");
    await writeBackup(file);
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("checks a 200 MB file in bounded memory (its rows are not kept)", { timeout: 120_000 }, async () => {
    let counted: Record<string, number> = {};
    const grew = await heapGrowth(async (sample) => {
      ({ rows: counted } = await verifyBackup(file, sample));
    });
    expect(counted).toEqual({ "public.notes": ROWS });
    expect(grew / MIB).toBeLessThan(100);
  });

  it("loads the checked file's rows in bounded memory", { timeout: 120_000 }, async () => {
    let rows = 0;
    const grew = await heapGrowth(async (sample) => {
      for await (const item of readBackup(file, sample, { rowsChecked: true })) if (item.kind === "row") rows++;
    });
    expect(rows).toBe(ROWS);
    expect(grew / MIB).toBeLessThan(100);
  });

  it("still refuses a file whose gzip stream is cut short", { timeout: 120_000 }, async () => {
    const { readFile, writeFile } = await import("node:fs/promises");
    const whole = await readFile(file);
    const cut = path.join(dir, "cut.backup");
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length / 2)), { mode: 0o600 });
    await expect(verifyBackup(cut)).rejects.toThrow(/is not a readable backup|is incomplete/);
  });
});
