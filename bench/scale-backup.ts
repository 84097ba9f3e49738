// `npm run cli -- backup` and `restore` over the scale part's table, as an operator runs them: the CLI in its
// own process with the run's keys, timed from start to exit, its progress lines (stderr) shown as they come
// and counted. The restore goes back into the same database (`--yes`), so the disk holds one copy and the file.
import { spawn } from "node:child_process";
import { rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { TEST_SECRETS } from "@/tests/support/server";
import { ROOT } from "./support";

export type CliTimed = {
  seconds: number;
  /** Progress lines the CLI wrote on stderr while it ran, and the last of them. */
  progressLines: number;
  lastProgress: string | null;
};
export type BackupRestoreResult = {
  backup: CliTimed & { bytes: number; rows: number; bytesPerTransfer: number };
  /** transfersAfter: counted in the database after the restore, against the backup's count of them. */
  restore: CliTimed & { rows: number; transfersAfter: number; transfersMatch: boolean };
};

/** The backup or the restore failed: what it said (the CLI's exit code and output). */
export type BackupRestoreFailure = { failed: string };

type CliOutcome = CliTimed & { json: Record<string, unknown> };

export function runCliTimed(args: string[], databaseUrl: string, label: string): Promise<CliOutcome> {
  const started = performance.now();
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/cli.ts", ...args, "--json"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, ...TEST_SECRETS, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let pending = "";
  let progressLines = 0;
  let lastProgress: string | null = null;
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    pending += d.toString();
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      if (!/^(backup|restore): /.test(line)) continue;
      progressLines++;
      lastProgress = line;
      process.stdout.write(`  ${label}: ${line}\n`);
    }
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      if (code !== 0) return reject(new Error(`cli ${args[0]} failed (${code}): ${stdout} ${stderr}`));
      resolve({ seconds, progressLines, lastProgress, json: JSON.parse(stdout) as Record<string, unknown> });
    });
  });
}

async function countTransfers(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM transfers")).rows[0]!.n);
  } finally {
    await client.end();
  }
}

const sum = (rows: unknown) => Object.values(rows as Record<string, number>).reduce((n, r) => n + r, 0);

/** A backup of the whole database to TMPDIR, then a restore of it over the same database; the file removed. */
export async function benchBackupRestore(databaseUrl: string, transfers: number): Promise<BackupRestoreResult> {
  const file = path.join(os.tmpdir(), `rx-bench-scale-${process.pid}.rxbackup.gz`);
  try {
    const backup = await runCliTimed(["backup", "--out", file], databaseUrl, "cli backup");
    const bytes = (await stat(file)).size;
    const restore = await runCliTimed(["restore", file, "--yes"], databaseUrl, "cli restore");
    const { json: backedUp, ...backupTimed } = backup;
    const { json: restored, ...restoreTimed } = restore;
    const transfersAfter = await countTransfers(databaseUrl);
    return {
      backup: {
        ...backupTimed,
        bytes,
        rows: sum(backedUp.rows),
        bytesPerTransfer: Math.round(bytes / transfers),
      },
      restore: {
        ...restoreTimed,
        rows: sum(restored.rows),
        transfersAfter,
        transfersMatch: transfersAfter === (backedUp.rows as Record<string, number>)["public.transfers"],
      },
    };
  } finally {
    await rm(file, { force: true });
  }
}
