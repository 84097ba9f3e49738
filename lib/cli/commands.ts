// The admin commands behind `npm run cli`. Each returns the JSON object for --json and a line for people.
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { createOAuthClient, revokeOAuthClient } from "@/lib/auth/oauth";
import { DomainError } from "@/lib/errors";
import { assertPartnerExists, createPartner, listPartners } from "@/lib/partners/create-partner";
import { createUser } from "@/lib/users/create-user";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";

export class CliUsageError extends Error {}

export const CLI_USAGE = `usage: npm run cli -- <command> [options] [--json]

  partner create --name <name> --callback-url <url> [--npi <npi>]...
                                   create a sending partner with an API key, an OAuth client and a webhook secret
  partner list                     list partners with their keys and clients
  key create --partner <partnerId> [--expires-in-days <n>]
                                   create another API key (shown once)
  key revoke <keyId>               revoke an API key at once
  client create --partner <partnerId>
                                   create another OAuth client (secret shown once)
  client revoke <clientId>         revoke an OAuth client and its tokens
  user create --email <e> --password <p> --role pharmacist|admin [--name <name>]
  audit verify                     check the audit log's hash chain; exit 1 and name the first broken record

  --json   print one JSON object on stdout
`;

export type CliValues = {
  name?: string;
  "callback-url"?: string;
  npi?: string[];
  partner?: string;
  email?: string;
  password?: string;
  role?: string;
  "expires-in-days"?: string;
};

/** exitCode: non-zero when the command ran but found a problem (e.g. a broken audit chain). */
export type CliResult = { json: unknown; human: string; exitCode?: number };

function required(values: CliValues, key: keyof CliValues): string {
  const value = values[key];
  if (typeof value !== "string" || value === "") throw new CliUsageError(`--${key} is required`);
  return value;
}

function positional(args: string[], index: number, what: string): string {
  const value = args[index];
  if (!value) throw new CliUsageError(`${what} is required`);
  return value;
}

export async function runCliCommand(args: string[], values: CliValues): Promise<CliResult> {
  const command = args.slice(0, 2).join(" ");
  switch (command) {
    case "partner create": {
      const p = await createPartner({ name: required(values, "name"), callbackUrl: required(values, "callback-url"), npis: values.npi ?? [] });
      const json = { partnerId: p.partnerId, apiKey: p.apiKey, clientId: p.clientId, clientSecret: p.clientSecret, webhookSecret: p.webhookSecret };
      return {
        json,
        human: [
          `partner        ${p.partnerId}`,
          `API key        ${p.apiKey}   (shown once)`,
          `OAuth client   ${p.clientId}`,
          `client secret  ${p.clientSecret}   (shown once)`,
          `webhook secret ${p.webhookSecret}`,
        ].join("\n"),
      };
    }
    case "partner list": {
      const partners = await listPartners();
      const human = partners.length
        ? partners
            .map((p) => `${p.partnerId}  ${p.name}${p.suspended ? " (suspended)" : ""}  ${p.callbackUrl}  keys: ${p.apiKeys.filter((k) => !k.revoked).length} active`)
            .join("\n")
        : "no partners";
      return { json: { partners }, human };
    }
    case "key create": {
      const partnerId = required(values, "partner");
      await assertPartnerExists(partnerId);
      const daysText = values["expires-in-days"];
      let expiresAt: Date | undefined;
      if (daysText !== undefined) {
        const days = Number(daysText);
        if (!Number.isInteger(days) || days < 1) throw new CliUsageError("--expires-in-days must be a whole number of days >= 1");
        expiresAt = new Date(Date.now() + days * 86_400_000);
      }
      const key = await createApiKey(partnerId, { expiresAt });
      return {
        json: { keyId: key.keyId, apiKey: key.apiKey, partnerId, expiresAt: expiresAt?.toISOString() ?? null },
        human: `key ${key.keyId}\nAPI key ${key.apiKey}   (shown once)`,
      };
    }
    case "key revoke": {
      const keyId = positional(args, 2, "keyId");
      if (!(await revokeApiKey(keyId))) throw new DomainError("not_found", `no API key ${keyId}`);
      return { json: { keyId, revoked: true }, human: `revoked ${keyId}` };
    }
    case "client create": {
      const partnerId = required(values, "partner");
      await assertPartnerExists(partnerId);
      const client = await createOAuthClient(partnerId);
      return {
        json: { clientId: client.clientId, clientSecret: client.clientSecret, partnerId },
        human: `OAuth client ${client.clientId}\nclient secret ${client.clientSecret}   (shown once)`,
      };
    }
    case "client revoke": {
      const clientId = positional(args, 2, "clientId");
      if (!(await revokeOAuthClient(clientId))) throw new DomainError("not_found", `no OAuth client ${clientId}`);
      return { json: { clientId, revoked: true }, human: `revoked ${clientId} and its tokens` };
    }
    case "user create": {
      const user = await createUser({
        email: required(values, "email"),
        password: required(values, "password"),
        role: required(values, "role"),
        name: values.name,
      });
      return { json: user, human: `user ${user.userId}` };
    }
    case "audit verify": {
      const report = await verifyAuditChain();
      if (report.ok) return { json: report, human: `audit chain intact: ${report.records} records` };
      const b = report.brokenAt;
      return {
        json: report,
        human: `audit chain BROKEN at record ${b.id} (${b.at}, ${b.action}): ${b.reason}; ${report.records} records before it verified`,
        exitCode: 1,
      };
    }
    default:
      throw new CliUsageError(`unknown command: ${args.join(" ") || "(none)"}; see npm run cli -- help`);
  }
}
