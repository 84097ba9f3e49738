// compose.yaml's stack started in the order it declares, each step checked.
import { compose, containerOf, podman, tail } from "./podman";
import { get, waitFor } from "./probes";
import { check, say } from "./report";

/**
 * podman-compose 1.0.3 (Debian 12's) starts services without waiting for depends_on conditions, so the order
 * compose.yaml declares is followed step by step: the database, until healthy; db-deploy; web and worker.
 */
export async function startStack(base: string, when: string): Promise<boolean> {
  const upDb = await compose(["up", "-d", "db"]);
  if (!check(`compose starts the database (${when})`, upDb.code === 0, upDb.code === 0 ? "" : tail(upDb))) return false;
  const dbReady = await waitFor("pg_isready", 90, async () => {
    const r = await podman(["exec", containerOf("db"), "pg_isready"]);
    return r.code === 0;
  });
  if (!check(`the database accepts connections (${when})`, dbReady)) return false;
  const deploy = await compose(["run", "--rm", "db-deploy"]);
  const deployed = deploy.code === 0 && /migrations applied/.test(deploy.stdout);
  if (
    !check(
      `db-deploy applies the migrations and exits 0 (${when})`,
      deployed,
      deployed ? (deploy.stdout.match(/migrations applied[^\n]*/)?.[0] ?? "") : tail(deploy, 15),
    )
  )
    return false;
  const up = await compose(["up", "-d", "--no-deps", "web", "worker"]);
  check(`compose starts web and worker (${when})`, up.code === 0, up.code === 0 ? "" : tail(up));
  const ready = await waitFor("/readyz 200", 180, async () => (await get(`${base}/readyz`)) === 200);
  if (!check(`/readyz answers 200 (${when})`, ready)) {
    say(tail(await podman(["logs", "--tail", "30", containerOf("web")]), 30));
    return false;
  }
  return true;
}
