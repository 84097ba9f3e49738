// The image: the two official base images built locally as stand-ins (no registry is reachable; kept between
// runs), then the real Dockerfile with --pull=never.
import path from "node:path";
import { IMAGE, podman, ROOT, run } from "./podman";
import { check, say } from "./report";

export async function buildImage(): Promise<boolean> {
  say("stand-ins for node:20-bookworm-slim and postgres:15-bookworm (built once, then kept)");
  const standIns = await run("bash", [path.join(ROOT, "scripts/container/build-stand-ins.sh")], { stream: true });
  if (!check("stand-in base images exist", standIns.code === 0, standIns.code === 0 ? "" : `exit ${standIns.code}`))
    return false;

  say("podman build --pull=never of the real Dockerfile (npm ci, next build, runtime stage)…");
  const buildStart = Date.now();
  const build = await podman(
    ["build", "--pull=never", "--network=host", "--format", "docker", "--layers", "-t", IMAGE, "."],
    { stream: true },
  );
  return check(
    "Dockerfile builds with --pull=never",
    build.code === 0,
    `${Math.round((Date.now() - buildStart) / 1000)}s`,
  );
}
