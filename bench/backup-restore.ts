// `npx tsx bench/backup-restore.ts [transfers]` (default 100 000): `cli backup` and `cli restore --yes` alone,
// over a table seeded as the queue and scale parts seed it, without the scale part's hour of seeding and
// rounds. Rows per second each way with the load average beside them, and the CPU each took (the CLI and the
// database's processes together), which moves much less than rows/s when other work shares the machine.
import { readFileSync } from "node:fs";
import { rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startBenchDatabase } from "./bench-database";
import { runCliTimed } from "./scale-backup";
import { seedTransfers } from "./seed-transfers";
import { processTreeCpuMs } from "./support";

const TOTAL = Number(process.argv[2] ?? 100_000);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** This process's tree, and the children it has reaped (the CLI runs once they exit). */
function cpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return processTreeCpuMs(process.pid) + ((Number(fields[13]) + Number(fields[14])) / 100) * 1000;
}

async function main(): Promise<void> {
  const { postgres, databaseUrl, partner } = await startBenchDatabase("rx_backup_bench");
  const file = path.join(os.tmpdir(), `rx-bench-backup-${process.pid}.rxbackup.gz`);
  try {
    const seedSeconds = await seedTransfers(databaseUrl, partner.partnerId, TOTAL);
    process.stdout.write(`seeded ${TOTAL.toLocaleString()} transfers in ${seedSeconds} s; load ${load()}\n`);
    for (const args of [
      ["backup", "--out", file],
      ["restore", file, "--yes"],
    ]) {
      const loadBefore = load();
      const cpuBefore = cpuMs();
      const run = await runCliTimed(args, databaseUrl, `cli ${args[0]}`);
      const cpuSeconds = (cpuMs() - cpuBefore) / 1000;
      const rows = Object.values(run.json.rows as Record<string, number>).reduce((n, r) => n + r, 0);
      process.stdout.write(
        `${args[0]}: ${rows.toLocaleString()} rows in ${run.seconds} s = ${Math.round(rows / run.seconds).toLocaleString()} rows/s; ` +
          `CPU ${cpuSeconds.toFixed(1)} s (${Math.round(rows / cpuSeconds).toLocaleString()} rows per CPU second); ` +
          `${run.progressLines} progress lines; file ${(await stat(file)).size} bytes; load ${loadBefore} -> ${load()}\n`,
      );
    }
  } finally {
    await rm(file, { force: true });
    await postgres.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
