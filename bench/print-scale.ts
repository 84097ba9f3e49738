// The scale part's own lines after a run (its queue cases and dashboard print as those parts do): the disk it
// needed, intake at both sizes, and the CLI's backup and restore.
import type { ScaleResult } from "./scale";
import { gib, size } from "./scale-disk";
import { table } from "./text-table";

export function printScale(s: ScaleResult): void {
  const disk = `${gib(s.needBytes)} needed at ${s.where}${s.freeBytes === null ? "" : `, ${gib(s.freeBytes)} free`}`;
  if (s.skipped) {
    process.stdout.write(`\nscale at ${s.transfers.toLocaleString()} transfers: skipped (${disk})\n`);
    return;
  }
  process.stdout.write(
    `\nscale at ${s.transfers.toLocaleString()} transfers (${disk}; ${s.seconds} s in all; its queue and dashboard above)\n`,
  );
  const i = s.intake;
  if (i) {
    const rows = [i.smaller, i.scale].map((x) => [
      `intake at ${x.transfers.toLocaleString()} transfers`,
      String(x.requestsPerSecond),
      String(x.cpuMsPerRequest),
      String(x.baselineRequestsPerSecond),
      String(x.ratioToBaseline),
    ]);
    process.stdout.write(
      `${table([
        ["figure", "ours req/s", "CPU ms/request", "baseline req/s", "ratio to baseline"],
        ...rows,
        [
          `at ${i.scale.transfers.toLocaleString()} / at ${i.smaller.transfers.toLocaleString()}`,
          String(i.ratio),
          String(i.cpuRatio),
          String(i.baselineRatio),
          String(i.ratioToBaselines),
        ],
      ])}\n`,
    );
  }
  const b = s.backupRestore;
  if (b && "failed" in b) {
    // The CLI's whole output can be long (a crash's stack): its first lines say what failed.
    process.stdout.write(`cli backup / restore FAILED: ${b.failed.split("\n").slice(0, 6).join("\n  ")}\n`);
  } else if (b) {
    process.stdout.write(
      `cli backup: ${b.backup.seconds} s, ${size(b.backup.bytes)} (${b.backup.bytesPerTransfer} bytes per transfer), ${b.backup.rows.toLocaleString()} rows, ${b.backup.progressLines} progress lines\n`,
    );
    process.stdout.write(
      `cli restore --yes: ${b.restore.seconds} s, ${b.restore.rows.toLocaleString()} rows, transfers after ${b.restore.transfersAfter.toLocaleString()} (${b.restore.transfersMatch ? "as backed up" : "NOT as backed up"}), ${b.restore.progressLines} progress lines\n`,
    );
  }
}
