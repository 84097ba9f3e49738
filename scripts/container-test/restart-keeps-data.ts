// compose down keeps the named volume: after it and a second start, the partner, the transfer and an intact
// audit log are all still there.
import { cli } from "./container-cli";
import { compose, containerOf, podman, tail } from "./podman";
import { check, say } from "./report";
import { startStack } from "./start-stack";

export async function checkRestartKeepsData(base: string, transferId: string): Promise<void> {
  say("compose down (the named volume stays), then up again");
  const down = await compose(["down", "-t", "30"]);
  check("compose down", down.code === 0, down.code === 0 ? "" : tail(down));
  if (!(await startStack(base, "after the restart"))) return;
  const list = await cli(["partner", "list"]);
  check(
    "the partner survived the restart",
    list.code === 0 && JSON.stringify(list.json ?? {}).includes("Container Test Sender"),
    list.out.split("\n").at(-1)?.slice(0, 200),
  );
  const row = await podman([
    "exec",
    containerOf("db"),
    "psql",
    "-U",
    "rx_transfer",
    "-d",
    "rx_transfer",
    "-tAc",
    `SELECT count(*) FROM transfers WHERE id = '${transferId.replace(/[^A-Za-z0-9_-]/g, "")}'`,
  ]);
  check(
    "the transfer survived the restart",
    transferId !== "" && row.stdout.trim() === "1",
    row.stdout.trim() || tail(row, 2),
  );
  const audit = await cli(["audit", "verify"]);
  check("the audit log verifies after the restart", audit.code === 0, audit.out.split("\n").at(-1)?.slice(0, 200));
}
