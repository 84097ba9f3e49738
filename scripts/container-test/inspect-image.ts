// What the built image must be, read from podman image inspect and from a listing inside it: its size, a
// non-root user, SIGTERM to stop, a HEALTHCHECK on /healthz, and nothing of a developer's checkout baked in.
import { IMAGE, podman } from "./podman";
import { check, say } from "./report";

export async function inspectImage(): Promise<void> {
  const inspect = await podman(["image", "inspect", IMAGE]);
  const image = (
    JSON.parse(inspect.stdout) as {
      Size: number;
      Config: { User?: string; StopSignal?: string };
      Healthcheck?: { Test?: string[] };
    }[]
  )[0]!;
  say(`image size: ${(image.Size / 1e6).toFixed(0)} MB (podman image inspect .Size)`);
  check("the image runs as the non-root user node", image.Config.User === "node", image.Config.User ?? "root");
  check("STOPSIGNAL is SIGTERM", image.Config.StopSignal === "SIGTERM", image.Config.StopSignal);
  check(
    "HEALTHCHECK probes /healthz with node",
    (image.Healthcheck?.Test ?? []).join(" ").includes("/healthz"),
    (image.Healthcheck?.Test ?? []).slice(0, 2).join(" "),
  );
  const listing = await podman(["run", "--rm", "--network=host", IMAGE, "sh", "-c", "ls -a /app; id -u"]);
  const entries = listing.stdout.split("\n");
  check(
    "no .env, .data, .git or test folders baked into the image",
    listing.code === 0 && ![".env", ".data", ".git", "test-results"].some((e) => entries.includes(e)),
    entries.filter((e) => e.startsWith(".")).join(" "),
  );
}
