import { describe, expect, it } from "vitest";
import { CliUsageError, runCliCommand } from "@/lib/cli/commands";

describe("runCliCommand", () => {
  it("refuses arguments PostgreSQL cannot store as a usage error naming each, before any database work", async () => {
    const run = runCliCommand(["partner", "update", "prt_\u0000"], { name: "Acme\ud800", npi: ["1558598797", "x\u0000"] });
    await expect(run).rejects.toThrow(CliUsageError);
    await expect(run).rejects.toThrow(
      "argument 3 contains a NUL character; --name is not valid Unicode (unpaired surrogate); --npi contains a NUL character",
    );
  });
});
