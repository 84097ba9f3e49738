// A postmaster of the cluster already running (read from its postmaster.pid, checked alive) to reuse, and a
// stale lock file of a killed one to remove.
import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

export type RunningPostmaster = { pid: number; port: number };

/** postmaster.pid: line 1 the pid, line 4 the port (PostgreSQL's documented lock-file layout). */
export function readPidFile(clusterDir: string): { pid: number; port: number } | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8");
  } catch {
    return undefined;
  }
  const lines = text.split("\n");
  const pid = Number.parseInt(lines[0] ?? "", 10);
  const port = Number.parseInt(lines[3] ?? "", 10);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return { pid, port };
}

export function isPostmasterAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // A recycled pid (e.g. after a reboot of a container) is not our postmaster.
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return cmdline.includes("postgres");
  } catch {
    return true; // no /proc (macOS): trust kill(0)
  }
}

export async function findRunningPostmaster(clusterDir: string): Promise<RunningPostmaster | undefined> {
  const entry = readPidFile(clusterDir);
  if (!entry || !isPostmasterAlive(entry.pid)) return undefined;
  // The port line is written a moment after the pid line while the postmaster starts.
  for (let i = 0; i < 50 && !(entry.port > 0); i++) {
    await sleep(100);
    const again = readPidFile(clusterDir);
    if (!again || again.pid !== entry.pid) return undefined;
    entry.port = again.port;
  }
  return entry.port > 0 ? entry : undefined;
}

/**
 * After a SIGKILL of the postmaster its lock file stays behind. PostgreSQL usually notices on its own,
 * but not when the dead pid has been reused by another process; the file is ours to remove once we
 * know its pid is not a live postmaster. (Its orphaned backends may hold the shared memory a moment
 * longer: the caller retries the start.)
 */
export async function removeStalePidFile(clusterDir: string, log: (msg: string) => void): Promise<void> {
  const entry = readPidFile(clusterDir);
  const file = path.join(clusterDir, "postmaster.pid");
  if (entry && isPostmasterAlive(entry.pid)) return;
  if (!existsSync(file)) return;
  log(`embedded postgres: removing stale ${file}${entry ? ` (pid ${entry.pid} is gone)` : ""}`);
  await fs.rm(file, { force: true });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
