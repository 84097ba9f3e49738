// The container test needs Debian's podman, runc, debootstrap (for the stand-in base images) and
// podman-compose; a missing one is one failed check saying how to install them.
import { spawnSync } from "node:child_process";
import { check } from "./report";

export function hasRequiredTools(): boolean {
  for (const tool of ["podman", "runc", "debootstrap", "podman-compose"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) {
      check(`${tool} is installed`, false, "apt-get install -y podman runc debootstrap podman-compose");
      return false;
    }
  }
  return true;
}
