// `integration-key …`: credentials of dispensing systems' interface engines for GET /api/integration/transfers
// (the same operations and input schema as Administration → Integration keys).
import { CLI_ACTOR } from "@/lib/audit/actor";
import type { CliCommand } from "@/lib/cli/command-table";
import { parseFlags } from "@/lib/cli/flag-input";
import { DomainError } from "@/lib/errors";
import { CreateIntegrationKeyInputSchema } from "@/lib/integration/integration-key-input";
import { createIntegrationKey, listIntegrationKeys, revokeIntegrationKey } from "@/lib/integration/integration-keys";

export const INTEGRATION_KEY_COMMANDS: readonly CliCommand[] = [
  {
    noun: "integration-key",
    verb: "create",
    flags: [{ name: "name", value: "<name>", required: true }],
    summary: ["a credential for an interface engine reading /api/integration/transfers (shown once)"],
    async run({ values }) {
      const { name } = parseFlags(CreateIntegrationKeyInputSchema, values, { name: "name" });
      const created = await createIntegrationKey({ name, actor: CLI_ACTOR });
      return {
        json: created,
        human: `${created.keyId}  ${created.name}\nintegration key (shown once): ${created.integrationKey}`,
      };
    },
  },
  {
    noun: "integration-key",
    verb: "list",
    summary: ["integration keys, revoked ones with when"],
    async run() {
      const keys = await listIntegrationKeys();
      return {
        json: { keys },
        human:
          keys
            .map((k) => `${k.keyId}  ${k.prefix}…${k.last4}  ${k.name}${k.revokedAt ? `  revoked ${k.revokedAt}` : ""}`)
            .join("\n") || "no integration keys",
      };
    },
  },
  {
    noun: "integration-key",
    verb: "revoke",
    args: [{ name: "keyId" }],
    summary: ["revoke an integration key at once"],
    async run({ args: [keyId = ""] }) {
      if (!(await revokeIntegrationKey({ keyId, actor: CLI_ACTOR })))
        throw new DomainError("not_found", `no integration key ${keyId}`);
      return { json: { keyId, revoked: true }, human: `${keyId} revoked` };
    },
  },
];
