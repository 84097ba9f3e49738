// What a run leaves behind goes, whether it passed, failed or was interrupted: the stack and its volume, the
// project's network, the machine's lock (when this run took it) and the test's folder.
import { rmSync } from "node:fs";
import { holdsLock, releaseLock } from "./machine-lock";
import { compose, podman, PROJECT, WORK_DIR } from "./podman";
import { say } from "./report";

export async function cleanUp(): Promise<void> {
  if (holdsLock()) {
    say("cleaning up: compose down -v, the project's network, the test's folder");
    await compose(["down", "-v"], { cleanUp: true }).catch(() => undefined);
    // podman-compose 1.0.3's down leaves the project's network behind.
    await podman(["network", "rm", "-f", `${PROJECT}_default`], { cleanUp: true }).catch(() => undefined);
    releaseLock();
  }
  rmSync(WORK_DIR, { recursive: true, force: true });
}
