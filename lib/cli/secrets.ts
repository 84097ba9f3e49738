// `secrets rotate-key`: re-seal the stored secrets under the current data encryption key.
import { CLI_ACTOR } from "@/lib/audit/actor";
import type { CliCommand } from "@/lib/cli/command-table";
import { rotateStoredSecrets } from "@/lib/partners/sealed-secrets";

export const SECRET_COMMANDS: readonly CliCommand[] = [
  {
    noun: "secrets",
    verb: "rotate-key",
    summary: [
      "re-seal every stored secret under the current DATA_ENCRYPTION_KEY (the old key",
      "given as DATA_ENCRYPTION_KEY_PREVIOUS); all or nothing, audited",
    ],
    async run() {
      const report = await rotateStoredSecrets(CLI_ACTOR);
      return {
        json: report,
        human: `${report.resealed} of ${report.secrets} stored secrets re-sealed under key ${report.keyId} (${report.alreadyCurrent} already were; ${report.partners} partners)`,
      };
    },
  },
];
