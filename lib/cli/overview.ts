// `overview …`: the overview's rollups (lib/overview/roll-up-overview.ts). The worker keeps them; this rebuilds
// them from the transfers, decisions and callbacks.
import type { CliCommand } from "@/lib/cli/command-table";
import { rebuildOverviewRollups } from "@/lib/overview/rebuild-overview-rollups";

export const OVERVIEW_COMMANDS: readonly CliCommand[] = [
  {
    noun: "overview",
    verb: "rebuild-rollups",
    summary: [
      "drop the overview's daily rollups and roll the last 30 days up again",
      "(after a restore, or in doubt); safe while workers run",
    ],
    async run() {
      const result = await rebuildOverviewRollups();
      return {
        json: result,
        human: `${result.daysRolledUp.length} day(s) rolled up in ${result.timeZone}; complete through ${result.completeThrough ?? "no day yet"}`,
      };
    },
  },
];
