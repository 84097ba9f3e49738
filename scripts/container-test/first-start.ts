// The stack's first start: compose.yaml's services up on the project's own network, only the web port
// published, the worker running, and the image's HEALTHCHECK passing in the web container.
import { containerOf, podman, tail } from "./podman";
import { check, say } from "./report";
import type { StackEnv } from "./stack-env";
import { startStack } from "./start-stack";

export async function checkFirstStart({ base, webPort }: StackEnv): Promise<boolean> {
  say("compose up -d db (named volume), db-deploy, web and worker, on the project's own network");
  if (!(await startStack(base, "first start"))) return false;
  const published = await Promise.all(
    ["db", "worker"].map(async (service) => (await podman(["port", containerOf(service)])).stdout.trim()),
  );
  const webPorts = (await podman(["port", containerOf("web")])).stdout.trim();
  check(
    "only the web port is published",
    published.every((p) => p === "") && webPorts === `3000/tcp -> 127.0.0.1:${webPort}`,
    `web: ${webPorts}; db, worker: ${published.map((p) => p || "none").join(", ")}`,
  );
  const worker = await podman(["inspect", "--format", "{{.State.Running}}", containerOf("worker")]);
  check("the worker is running", worker.stdout.trim() === "true", worker.stdout.trim() || tail(worker, 3));
  const health = await podman(["healthcheck", "run", containerOf("web")]);
  check("the image's HEALTHCHECK passes in the web container", health.code === 0, tail(health, 2));
  return true;
}
