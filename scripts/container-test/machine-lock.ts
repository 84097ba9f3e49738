// One run at a time on a machine: runs share the image tag compose.yaml names and the project's names.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const LOCK = path.join(tmpdir(), "rx-transfer-container-test.lock");
let ownsLock = false;

/** Takes the machine's lock, or names the live process that holds it. */
export function takeLock(): string | null {
  try {
    writeFileSync(LOCK, String(process.pid), { flag: "wx" });
    ownsLock = true;
    return null;
  } catch {
    const holder = Number(readFileSync(LOCK, "utf8"));
    try {
      process.kill(holder, 0);
      return `pid ${holder} holds ${LOCK}`;
    } catch {
      rmSync(LOCK, { force: true }); // left by a run that died
      return takeLock();
    }
  }
}

/** Whether this run took the lock (and so owns the stack that clean-up takes down). */
export function holdsLock(): boolean {
  return ownsLock;
}

export function releaseLock(): void {
  rmSync(LOCK, { force: true });
}
