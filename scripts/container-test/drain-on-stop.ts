// A graceful stop: podman stop sends SIGTERM; /readyz must answer 503 while the web container drains, and the
// container must then exit 0.
import { containerOf, podman } from "./podman";
import { get } from "./probes";
import { check, say } from "./report";

export async function checkDrainOnStop(base: string): Promise<void> {
  say("podman stop of the web container: /readyz must answer 503 while it drains, then exit 0");
  let saw503 = false;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      if ((await get(`${base}/readyz`)) === 503) saw503 = true;
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const stop = await podman(["stop", "-t", "40", containerOf("web")]);
  polling = false;
  await poller;
  check("/readyz answered 503 during the drain", saw503);
  const exit = await podman(["inspect", "--format", "{{.State.ExitCode}}", containerOf("web")]);
  check(
    "the web container exited 0 on SIGTERM",
    stop.code === 0 && exit.stdout.trim() === "0",
    `exit ${exit.stdout.trim()}`,
  );
}
