// The table of commands behind `npm run cli`, a file per noun. The parser (parse-command-line.ts) and the
// usage text (usage.ts) are both made from it; scripts/cli.ts runs the command found.
import { AUDIT_COMMANDS } from "@/lib/cli/audit";
import { BACKUP_COMMANDS } from "@/lib/cli/backup";
import { CALLBACK_COMMANDS } from "@/lib/cli/callbacks";
import { CLIENT_COMMANDS } from "@/lib/cli/clients";
import type { CliCommand } from "@/lib/cli/command-table";
import { INTEGRATION_KEY_COMMANDS } from "@/lib/cli/integration-keys";
import { KEY_COMMANDS } from "@/lib/cli/keys";
import { OVERVIEW_COMMANDS } from "@/lib/cli/overview";
import { PARTNER_COMMANDS } from "@/lib/cli/partners";
import { SECRET_COMMANDS } from "@/lib/cli/secrets";
import { SENDER_COMMANDS } from "@/lib/cli/sender";
import { STORE_COMMANDS } from "@/lib/cli/stores";
import { TRANSFER_COMMANDS } from "@/lib/cli/transfers";
import { fullUsage } from "@/lib/cli/usage";
import { USER_COMMANDS } from "@/lib/cli/users";

export const CLI_COMMANDS: readonly CliCommand[] = [
  ...BACKUP_COMMANDS,
  ...PARTNER_COMMANDS,
  ...KEY_COMMANDS,
  ...CLIENT_COMMANDS,
  ...USER_COMMANDS,
  ...STORE_COMMANDS,
  ...TRANSFER_COMMANDS,
  ...INTEGRATION_KEY_COMMANDS,
  ...AUDIT_COMMANDS,
  ...SECRET_COMMANDS,
  ...CALLBACK_COMMANDS,
  ...SENDER_COMMANDS,
  ...OVERVIEW_COMMANDS,
];

/** `npm run cli -- --help`. */
export const CLI_USAGE = fullUsage(CLI_COMMANDS);
