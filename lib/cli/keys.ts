// `key …`: partners' API keys (the same operations and input schemas as the partner's screen).
import { CreateApiKeyInputSchema, RotateApiKeyInputSchema } from "@/lib/partners/partner-inputs";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { createApiKey } from "@/lib/auth/create-api-key";
import { revokeApiKey } from "@/lib/auth/revoke-api-key";
import { rotateApiKey } from "@/lib/auth/rotate-api-key";
import { requiredFlag, type CliCommand } from "@/lib/cli/command-table";
import { parseFlags } from "@/lib/cli/flag-input";
import { DomainError } from "@/lib/errors";
import { DEFAULT_OVERLAP_HOURS } from "@/lib/partners/credential-rules";
import { assertPartnerExists } from "@/lib/partners/partner-guards";

const keyId = [{ name: "keyId" }] as const;

export const KEY_COMMANDS: readonly CliCommand[] = [
  {
    noun: "key",
    verb: "create",
    flags: [
      { name: "partner", value: "<partnerId>", required: true },
      { name: "expires-in-days", value: "<n>" },
    ],
    summary: ["create another API key (shown once)"],
    async run({ values }) {
      const partnerId = requiredFlag(values, "partner");
      const { expiresInDays } = parseFlags(CreateApiKeyInputSchema, values, { expiresInDays: "expires-in-days" });
      await assertPartnerExists(partnerId);
      const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : undefined;
      const key = await createApiKey({ partnerId, expiresAt, actor: CLI_ACTOR });
      return {
        json: { keyId: key.keyId, apiKey: key.apiKey, partnerId, expiresAt: expiresAt?.toISOString() ?? null },
        human: `key ${key.keyId}\nAPI key ${key.apiKey}   (shown once)`,
      };
    },
  },
  {
    noun: "key",
    verb: "revoke",
    args: keyId,
    summary: ["revoke an API key at once"],
    async run({ args: [id = ""] }) {
      if (!(await revokeApiKey({ keyId: id, actor: CLI_ACTOR })))
        throw new DomainError("not_found", `no API key ${id}`);
      return { json: { keyId: id, revoked: true }, human: `revoked ${id}` };
    },
  },
  {
    noun: "key",
    verb: "rotate",
    args: keyId,
    flags: [{ name: "overlap-hours", value: "<h>" }],
    summary: [`new key; the old one expires after the overlap (default ${DEFAULT_OVERLAP_HOURS})`],
    async run({ args: [id = ""], values }) {
      const { overlapHours } = parseFlags(
        RotateApiKeyInputSchema,
        values,
        { overlapHours: "overlap-hours" },
        { overlapHours: DEFAULT_OVERLAP_HOURS },
      );
      const rotated = await rotateApiKey({ keyId: id, overlapHours, actor: CLI_ACTOR });
      return {
        json: { keyId: rotated.keyId, apiKey: rotated.apiKey, oldKeyId: id, oldKeyExpiresAt: rotated.oldKeyExpiresAt },
        human: `key ${rotated.keyId}\nAPI key ${rotated.apiKey}   (shown once)\nold key ${id} expires at ${rotated.oldKeyExpiresAt}`,
      };
    },
  },
];
