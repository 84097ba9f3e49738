// The backup and restore progress lines: at most one every few seconds, none in a short run, and each
// saying how far the command is in rows and bytes.
import { describe, expect, it } from "vitest";
import { backupProgressLine, everyFewSeconds, restoreProgressLine } from "@/lib/cli/backup-progress";

describe("everyFewSeconds", () => {
  it("writes nothing before the interval, then one line per interval however often it hears", () => {
    let clock = 1_000;
    const lines: string[] = [];
    const report = everyFewSeconds<number>(
      (line) => lines.push(line),
      (n, elapsed) => `${n} at ${elapsed}`,
      { everyMs: 5_000, now: () => clock },
    );
    for (let n = 1; n <= 100; n++) {
      clock += 250; // 25 s in all
      report(n);
    }
    expect(lines).toEqual(["20 at 5000\n", "40 at 10000\n", "60 at 15000\n", "80 at 20000\n", "100 at 25000\n"]);
  });
});

describe("progress lines", () => {
  it("say a backup's rows, table and bytes written", () => {
    expect(backupProgressLine({ table: "public.transfers", rows: 1_234_000, bytes: 512 * 2 ** 20 }, 45_400)).toBe(
      "backup: 1,234,000 rows written (now public.transfers), 512.0 MiB, 45 s",
    );
  });

  it("say how much of the file a restore has checked, how many rows it has loaded of all, then the indexes built", () => {
    const file = { fileBytes: 4 * 2 ** 30, totalRows: null };
    expect(restoreProgressLine({ phase: "verifying", rows: 900_000, bytesRead: 2 ** 30, ...file }, 10_000)).toBe(
      "restore: checking the file, 25 % read (1.00 GiB of 4.00 GiB, 900,000 rows), 10 s",
    );
    expect(
      restoreProgressLine(
        { phase: "loading", rows: 2_000_000, totalRows: 5_000_000, bytesRead: 2 ** 30, fileBytes: 4 * 2 ** 30 },
        70_000,
      ),
    ).toBe("restore: loading, 2,000,000 rows of 5,000,000 (40 %), 70 s");
    expect(
      restoreProgressLine(
        {
          ...file,
          phase: "indexing",
          rows: 5_000_000,
          totalRows: 5_000_000,
          bytesRead: 0,
          indexesBuilt: 3,
          indexes: 21,
        },
        95_000,
      ),
    ).toBe("restore: building indexes, 3 of 21 (5,000,000 rows loaded), 95 s");
  });
});
