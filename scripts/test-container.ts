// `npm run test:container`: the Dockerfile and compose.yaml, built and run for real with Debian's podman.
// No image registry is reachable from the machines this runs on, so the two official base images are built
// locally first (scripts/container/build-stand-ins.sh, kept between runs), then the real Dockerfile with
// --pull=never, then the stack from compose.yaml, unchanged, with podman-compose (its own bridge network,
// only the web port published, on 127.0.0.1 here). Ends with one line `container: N passed, N failed`.
// The stages, in the order below, live in scripts/container-test/.
import { buildImage } from "./container-test/build-image";
import { cleanUp } from "./container-test/clean-up";
import { checkDrainOnStop } from "./container-test/drain-on-stop";
import { createAdminAndSendTransfer } from "./container-test/first-admin-and-transfer";
import { checkFirstStart } from "./container-test/first-start";
import { inspectImage } from "./container-test/inspect-image";
import { takeLock } from "./container-test/machine-lock";
import { stopRunningCommands } from "./container-test/podman";
import { check, finish, markInterrupted } from "./container-test/report";
import { hasRequiredTools } from "./container-test/required-tools";
import { checkRestartKeepsData } from "./container-test/restart-keeps-data";
import { writeStackEnv } from "./container-test/stack-env";

async function main(): Promise<void> {
  if (!hasRequiredTools()) return;

  const holder = takeLock();
  if (!check("no other container test runs on this machine", holder === null, holder ?? "")) return;

  if (!(await buildImage())) return;
  await inspectImage();

  const stack = await writeStackEnv();
  if (!stack) return;
  if (!(await checkFirstStart(stack))) return;
  const transferId = await createAdminAndSendTransfer(stack);
  await checkDrainOnStop(stack.base);
  await checkRestartKeepsData(stack.base, transferId);
}

// Interrupted (Ctrl-C, a CI timeout): the stack, its volume and the lock go too, and the run counts as failed.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    check("the test ran to its end", false, `interrupted by ${signal}`);
    markInterrupted(signal);
    stopRunningCommands();
  });
}

main()
  .catch((err: unknown) => check("the test ran to its end", false, err instanceof Error ? err.stack : String(err)))
  .then(cleanUp)
  .finally(finish);
