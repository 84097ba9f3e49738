// `integration-key create --name <n> | list | revoke <keyId>`: credentials of dispensing systems' interface
// engines for GET /api/integration/transfers (the same operations as Administration → Integration keys).
import { CLI_ACTOR } from "@/lib/audit/actor";
import type { CliResult, CliValues } from "@/lib/cli/commands";
import { DomainError } from "@/lib/errors";
import { CreateIntegrationKeyInputSchema } from "@/lib/integration/integration-key-input";
import { createIntegrationKey, listIntegrationKeys, revokeIntegrationKey } from "@/lib/integration/integration-keys";

export async function runIntegrationKeyCommand(args: string[], values: CliValues): Promise<CliResult> {
  switch (args[1]) {
    case "create": {
      const parsed = CreateIntegrationKeyInputSchema.safeParse({ name: values.name ?? "" });
      if (!parsed.success) throw new DomainError("invalid_input", `--name: ${parsed.error.issues[0]?.message ?? "invalid"}`);
      const created = await createIntegrationKey({ name: parsed.data.name, actor: CLI_ACTOR });
      return { json: created, human: `${created.keyId}  ${created.name}\nintegration key (shown once): ${created.integrationKey}` };
    }
    case "list": {
      const keys = await listIntegrationKeys();
      return { json: { keys }, human: keys.map((k) => `${k.keyId}  ${k.prefix}…${k.last4}  ${k.name}${k.revokedAt ? `  revoked ${k.revokedAt}` : ""}`).join("\n") || "no integration keys" };
    }
    case "revoke": {
      const keyId = args[2];
      if (!keyId) throw new DomainError("invalid_input", "integration-key revoke <keyId>: the key id is required");
      if (!(await revokeIntegrationKey({ keyId, actor: CLI_ACTOR }))) throw new DomainError("not_found", `no integration key ${keyId}`);
      return { json: { keyId, revoked: true }, human: `${keyId} revoked` };
    }
    default:
      throw new DomainError("invalid_input", "integration-key create --name <name> | list | revoke <keyId>");
  }
}
