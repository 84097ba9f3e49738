// `client …`: partners' OAuth clients (client credentials for /oauth/token).
import { CLI_ACTOR } from "@/lib/audit/actor";
import { createOAuthClient } from "@/lib/auth/create-oauth-client";
import { revokeOAuthClient } from "@/lib/auth/revoke-oauth-client";
import { requiredFlag, type CliCommand } from "@/lib/cli/command-table";
import { DomainError } from "@/lib/errors";
import { assertPartnerExists } from "@/lib/partners/partner-guards";

export const CLIENT_COMMANDS: readonly CliCommand[] = [
  {
    noun: "client",
    verb: "create",
    flags: [{ name: "partner", value: "<partnerId>", required: true }],
    summary: ["create another OAuth client (secret shown once)"],
    async run({ values }) {
      const partnerId = requiredFlag(values, "partner");
      await assertPartnerExists(partnerId);
      const client = await createOAuthClient({ partnerId, actor: CLI_ACTOR });
      return {
        json: { clientId: client.clientId, clientSecret: client.clientSecret, partnerId },
        human: `OAuth client ${client.clientId}\nclient secret ${client.clientSecret}   (shown once)`,
      };
    },
  },
  {
    noun: "client",
    verb: "revoke",
    args: [{ name: "clientId" }],
    summary: ["revoke an OAuth client and its tokens"],
    async run({ args: [id = ""] }) {
      if (!(await revokeOAuthClient({ clientId: id, actor: CLI_ACTOR })))
        throw new DomainError("not_found", `no OAuth client ${id}`);
      return { json: { clientId: id, revoked: true }, human: `revoked ${id} and its tokens` };
    },
  },
];
