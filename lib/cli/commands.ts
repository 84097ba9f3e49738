// The admin commands behind `npm run cli`. Each returns the JSON object for --json and a line for people.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { createApiKey } from "@/lib/auth/create-api-key";
import { revokeApiKey } from "@/lib/auth/revoke-api-key";
import { rotateApiKey } from "@/lib/auth/rotate-api-key";
import { resetTwoFactor } from "@/lib/auth/two-factor/reset-two-factor";
import { endAllUserSessions } from "@/lib/auth/user-sessions";
import { db } from "@/lib/db/prisma";
import { rotateWebhookSecret } from "@/lib/partners/rotate-webhook-secret";
import { setPartnerOutboundCredential } from "@/lib/partners/set-partner-outbound-credential";
import { setPartnerSuspended } from "@/lib/partners/set-partner-suspended";
import { updatePartnerCallbackUrl } from "@/lib/partners/update-partner-callback-url";
import { addStore } from "@/lib/stores/add-store";
import { listStores } from "@/lib/stores/list-stores";
import { removeStore } from "@/lib/stores/remove-store";
import { setStoreRules } from "@/lib/stores/set-store-rules";
import { formatExtraSchedules, parseExtraSchedulesText } from "@/lib/stores/store-rules";
import { exportTransfers, parseTransferExportQuery } from "@/lib/transfers/export-transfers";
import { changeUserRole } from "@/lib/users/change-user-role";
import { listUsers } from "@/lib/users/list-users";
import { resetUserPassword } from "@/lib/users/reset-user-password";
import { setUserDisabled } from "@/lib/users/set-user-disabled";
import { setUserLicenseNumber } from "@/lib/users/set-user-license-number";
import { createOAuthClient } from "@/lib/auth/create-oauth-client";
import { revokeOAuthClient } from "@/lib/auth/revoke-oauth-client";
import { DomainError } from "@/lib/errors";
import { assertPartnerExists } from "@/lib/partners/partner-guards";
import { createPartner } from "@/lib/partners/create-partner";
import { listPartners } from "@/lib/partners/list-partners";
import { createUser } from "@/lib/users/create-user";
import { parseChainHeads, verifyAuditChain, type VerifyOptions } from "@/lib/audit/verify-audit-chain";
import { rotateStoredSecrets } from "@/lib/partners/sealed-secrets";
import { exportAuditLog } from "@/lib/audit/export-audit-log";
import { parseAuditQuery } from "@/lib/audit/audit-query";
import { queryAuditLog } from "@/lib/audit/query-audit-log";
import { getPartnerDetails } from "@/lib/partners/get-partner-details";
import { updatePartnerProfile } from "@/lib/partners/update-partner-profile";
import { findJsonProblems, textProblem } from "@/lib/text-safety";
import { runBackupCommand } from "@/lib/cli/backup";
import { runIntegrationKeyCommand } from "@/lib/cli/integration-keys";
import { runTransfersFhir } from "@/lib/cli/transfers-fhir";
import { DEFAULT_OVERLAP_HOURS } from "@/lib/partners/credential-rules";

export class CliUsageError extends Error {}

export const CLI_USAGE = `usage: npm run cli -- <command> [options] [--json]

  backup [--out FILE] [--pg-dump]  a consistent snapshot of the whole database (default backups/rx-transfer-<time>.rxbackup.gz)
  restore FILE [--yes]             restore a backup into this database (--yes to replace data already there)

  partner create --name <name> --callback-url <url> [--npi <npi>]...
                                   create a sending partner with an API key, an OAuth client and a webhook secret
  partner list                     list partners with their keys and clients
  partner show <partnerId>         one partner: keys, OAuth clients, traffic (24 h / 7 d) and callback health
  partner update <partnerId> [--name <name>] [--npi <npi>]... [--clear-npis]
                                   rename a partner, or set the NPIs it may send from
  partner suspend|resume <partnerId>
  partner set-callback <partnerId> --callback-url <url>
  partner rotate-secret <partnerId> [--overlap-hours <h>]   new webhook secret; both sign until the overlap ends (default ${DEFAULT_OVERLAP_HOURS})
  partner set-credential <partnerId> --header-name <name> --header-value <value> | --clear
                                   the partner's own credential header on our callbacks (stored encrypted)
  key create --partner <partnerId> [--expires-in-days <n>]
                                   create another API key (shown once)
  key revoke <keyId>               revoke an API key at once
  key rotate <keyId> [--overlap-hours <h>]   new key; the old one expires after the overlap (default ${DEFAULT_OVERLAP_HOURS})
  client create --partner <partnerId>
                                   create another OAuth client (secret shown once)
  client revoke <clientId>         revoke an OAuth client and its tokens
  user create --email <e> --password <p> --role pharmacist|admin [--name <name>] [--license <number>]
  user list
  user license <userId|email> --license <number> | --clear
                                   the pharmacist's licence number, printed on the records they approve
  user role <userId|email> --role pharmacist|admin
  user disable|enable <userId|email>
  user reset-password <userId|email> --password <p>
  user end-sessions <userId|email>  sign the user out everywhere at once (they can sign in again)
  user mfa-reset <userId|email>     reset two-factor sign-in (lost phone): secret and recovery codes dropped,
                                   every session ended; they enrol again at their next sign-in
  store add --name <name> --npi <npi> [--dea <dea>]
  store list                       stores with their state schedules and prescription validity
  store remove <storeId>
  store rules <storeId|npi> [--extra-schedules "gabapentin:V, ..."] [--rx-expiry-months <n>]
                                   a store's drug rules: state schedules on top of the federal table ("" clears),
                                   months a non-controlled prescription stays valid (default 12)
  transfers export --from <date> --to <date> [--schedule II|III|IV|V|any|all] [--outcome approved|rejected|any]
                   [--out <file>]
                                   the transfer log for inspections as CSV (decision dates: from inclusive, to
                                   exclusive; ISO dates are UTC days): every record element, oldest first; stdout
                                   unless --out; audited. Defaults: every schedule, approved transfers
  transfers fhir <referenceID>     the approved transfer's FHIR R4 Bundle (JSON) for the dispensing system; audited
  integration-key create --name <name> | list | revoke <keyId>
                                   credentials of interface engines reading /api/integration/transfers (shown once)
  audit verify [--head <heads> | --head <hash> [--head-id <id>]]
                                   check the audit log's keyed hash chains; exit 1 and name the first broken record.
                                   --head: heads the server logged earlier ("audit chain head": its "heads" value,
                                   or one "hash") must still be in the log (detects truncation or a rewrite)
  secrets rotate-key               re-seal every stored secret under the current DATA_ENCRYPTION_KEY (the old key
                                   given as DATA_ENCRYPTION_KEY_PREVIOUS); all or nothing, audited
  audit list [--user <email|id>] [--action <a|prefix.*>] [--transfer <id>] [--from <iso>] [--to <iso>]
             [--order newest|oldest] [--limit <n>] [--cursor <id>]
                                   one page of the audit log (nextCursor for the next)
  audit export [same filters]      the matching records as CSV, oldest first (the export is audited)

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
  "overlap-hours"?: string;
  "header-name"?: string;
  "header-value"?: string;
  clear?: boolean;
  dea?: string;
  "clear-npis"?: boolean;
  user?: string;
  action?: string;
  transfer?: string;
  from?: string;
  to?: string;
  order?: string;
  limit?: string;
  cursor?: string;
  license?: string;
  "extra-schedules"?: string;
  "rx-expiry-months"?: string;
  schedule?: string;
  outcome?: string;
  out?: string;
  head?: string;
  "head-id"?: string;
  yes?: boolean;
  "pg-dump"?: boolean;
  json?: boolean;
};

/** The audit filters given on the command line, as the API's query string takes them. */
function auditParams(values: CliValues): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ["user", "action", "transfer", "from", "to", "order", "limit", "cursor"] as const) {
    const value = values[key];
    if (value !== undefined) params.set(key, value);
  }
  return params;
}

/**
 * exitCode: non-zero when the command ran but found a problem (e.g. a broken audit chain). stream: output
 * too large to hold (a CSV export), written to stdout line by line instead of `human`.
 */
export type CliResult = { json: unknown; human: string; exitCode?: number; stream?: AsyncIterable<string> };

/** Writes the lines to a file as they come, honouring back-pressure. */
async function writeLines(path: string, lines: AsyncIterable<string>): Promise<void> {
  const file = createWriteStream(path, { flags: "w" });
  const failed = new Promise<never>((_, reject) => file.once("error", reject));
  try {
    for await (const line of lines) {
      if (!file.write(line)) await Promise.race([once(file, "drain"), failed]);
    }
  } finally {
    file.end();
  }
  await Promise.race([once(file, "finish"), failed]);
}

/** The state schedules as typed on the command line ("" clears them); a bad one names the option. */
function extraSchedulesOption(text: string): ReturnType<typeof parseExtraSchedulesText> {
  try {
    return parseExtraSchedulesText(text);
  } catch (err) {
    throw new DomainError("invalid_input", `--extra-schedules: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** --head <hash> [--head-id <id>]: a chain head as the server logged it. */
function expectedHeadOption(values: CliValues): VerifyOptions["expectedHead"] {
  const hash = values.head;
  const id = values["head-id"];
  if (hash === undefined) {
    if (id !== undefined) throw new CliUsageError("--head-id needs --head <hash>");
    return undefined;
  }
  if (hash.includes(":")) {
    // The set of heads ("heads" in the log line): every chain's last record must still be there.
    const heads = parseChainHeads(hash);
    if (!heads) throw new CliUsageError("--head must be the \"heads\" value (chain:id:hash,...) or a record hash from an \"audit chain head\" log line");
    if (id !== undefined) throw new CliUsageError("--head-id goes with a single record hash, not with the set of heads");
    return { heads };
  }
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new CliUsageError("--head must be a record hash (64 hex digits) or the \"heads\" value from an \"audit chain head\" log line");
  if (id !== undefined && !/^\d{1,19}$/.test(id)) throw new CliUsageError("--head-id must be a record id (digits)");
  return { hash, id };
}

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

function overlapHours(values: CliValues): number {
  const text = values["overlap-hours"] ?? String(DEFAULT_OVERLAP_HOURS);
  const hours = Number(text);
  if (!Number.isFinite(hours) || hours < 0) throw new CliUsageError("--overlap-hours must be a number of hours >= 0");
  return hours;
}

/** A user named by id or by email. */
async function userIdOf(ref: string): Promise<string> {
  if (!ref.includes("@")) return ref;
  const user = await db().user.findUnique({ where: { email: ref.trim().toLowerCase() }, select: { id: true } });
  if (!user) throw new DomainError("not_found", `no user with email ${ref}`);
  return user.id;
}

/** Arguments end up in PostgreSQL: text it cannot hold (lib/text-safety.ts) is a usage error, named. */
function refuseUnstorableArguments(args: readonly string[], values: CliValues): void {
  const problems: string[] = [];
  args.forEach((arg, i) => {
    const problem = textProblem(arg);
    if (problem) problems.push(`argument ${i + 1} ${problem}`);
  });
  for (const p of findJsonProblems(values)) problems.push(`--${String(p.path[0])} ${p.message}`);
  if (problems.length > 0) throw new CliUsageError(problems.join("; "));
}

export async function runCliCommand(args: string[], values: CliValues): Promise<CliResult> {
  refuseUnstorableArguments(args, values);
  if (args[0] === "backup" || args[0] === "restore") return runBackupCommand(args, values);
  if (args[0] === "transfers" && args[1] === "fhir") return runTransfersFhir(args[2]);
  if (args[0] === "integration-key") return runIntegrationKeyCommand(args, values);
  const command = args.slice(0, 2).join(" ");
  switch (command) {
    case "partner create": {
      const p = await createPartner({ name: required(values, "name"), callbackUrl: required(values, "callback-url"), npis: values.npi ?? [], actor: CLI_ACTOR });
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
            .map(
              (p) =>
                `${p.partnerId}  ${p.name}${p.suspended ? " (suspended)" : ""}  ${p.callbackUrl}  keys: ${p.apiKeys.filter((k) => !k.revoked).length} active` +
                (p.npiWarning ? `\n  warning: ${p.npiWarning}` : ""),
            )
            .join("\n")
        : "no partners";
      return { json: { partners }, human };
    }
    case "partner show": {
      const details = await getPartnerDetails(positional(args, 2, "partnerId"));
      const active = details.apiKeys.filter((k) => k.state === "active");
      return {
        json: details,
        human: [
          `${details.partnerId}  ${details.name}${details.suspended ? " (suspended)" : ""}`,
          `callbacks to   ${details.callbackUrl}  (endpoint ${details.callbacks.state})`,
          `NPIs           ${details.npis.join(", ") || "any"}`,
          ...(details.npiWarning ? [`warning        ${details.npiWarning}`] : []),
          `received       ${details.traffic.last24h} in 24 h, ${details.traffic.last7d} in 7 days, last ${details.traffic.lastReceivedAt ?? "never"}`,
          `API keys       ${active.map((k) => `${k.keyId} ${k.display}`).join(", ") || "none active"}`,
          `OAuth clients  ${details.oauthClients.filter((c) => c.state === "active").map((c) => c.clientId).join(", ") || "none active"}`,
        ].join("\n"),
      };
    }
    case "partner update": {
      const partnerId = positional(args, 2, "partnerId");
      const npis = values["clear-npis"] ? [] : values.npi;
      if (values.name === undefined && npis === undefined) throw new CliUsageError("give --name, --npi or --clear-npis");
      const updated = await updatePartnerProfile({ partnerId, change: { name: values.name, npis }, actor: CLI_ACTOR });
      return { json: { partnerId, ...updated }, human: `${partnerId} ${updated.name}, NPIs: ${updated.npis.join(", ") || "any"}` };
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
      const key = await createApiKey({ partnerId, expiresAt, actor: CLI_ACTOR });
      return {
        json: { keyId: key.keyId, apiKey: key.apiKey, partnerId, expiresAt: expiresAt?.toISOString() ?? null },
        human: `key ${key.keyId}\nAPI key ${key.apiKey}   (shown once)`,
      };
    }
    case "key revoke": {
      const keyId = positional(args, 2, "keyId");
      if (!(await revokeApiKey({ keyId, actor: CLI_ACTOR }))) throw new DomainError("not_found", `no API key ${keyId}`);
      return { json: { keyId, revoked: true }, human: `revoked ${keyId}` };
    }
    case "client create": {
      const partnerId = required(values, "partner");
      await assertPartnerExists(partnerId);
      const client = await createOAuthClient({ partnerId, actor: CLI_ACTOR });
      return {
        json: { clientId: client.clientId, clientSecret: client.clientSecret, partnerId },
        human: `OAuth client ${client.clientId}\nclient secret ${client.clientSecret}   (shown once)`,
      };
    }
    case "client revoke": {
      const clientId = positional(args, 2, "clientId");
      if (!(await revokeOAuthClient({ clientId, actor: CLI_ACTOR }))) throw new DomainError("not_found", `no OAuth client ${clientId}`);
      return { json: { clientId, revoked: true }, human: `revoked ${clientId} and its tokens` };
    }
    case "user create": {
      const user = await createUser({
        email: required(values, "email"),
        password: required(values, "password"),
        role: required(values, "role"),
        name: values.name,
        licenseNumber: values.license,
        actor: CLI_ACTOR,
      });
      return { json: user, human: `user ${user.userId}` };
    }
    case "user list": {
      const users = await listUsers();
      return {
        json: { users },
        human:
          users.map((u) => `${u.userId}  ${u.email}  ${u.role}${u.licenseNumber ? `  licence ${u.licenseNumber}` : ""}${u.disabled ? " (disabled)" : ""}`).join("\n") ||
          "no users",
      };
    }
    case "user license": {
      const userId = await userIdOf(positional(args, 2, "userId or email"));
      if (Boolean(values.clear) === (values.license !== undefined)) throw new CliUsageError("give --license <number> or --clear");
      const result = await setUserLicenseNumber({ userId, licenseNumber: values.clear ? null : values.license!, actor: CLI_ACTOR });
      return { json: result, human: result.licenseNumber ? `${userId} licence number ${result.licenseNumber}` : `${userId} has no licence number` };
    }
    case "user role": {
      const userId = await userIdOf(positional(args, 2, "userId or email"));
      const role = required(values, "role");
      await changeUserRole({ userId, role, actor: CLI_ACTOR });
      return { json: { userId, role }, human: `${userId} is now ${role}` };
    }
    case "user disable":
    case "user enable": {
      const userId = await userIdOf(positional(args, 2, "userId or email"));
      const disabled = args[1] === "disable";
      await setUserDisabled({ userId, disabled, actor: CLI_ACTOR });
      return { json: { userId, disabled }, human: `${userId} ${disabled ? "disabled" : "enabled"}` };
    }
    case "user reset-password": {
      const userId = await userIdOf(positional(args, 2, "userId or email"));
      await resetUserPassword({ userId, password: required(values, "password"), actor: CLI_ACTOR });
      return { json: { userId, passwordReset: true }, human: `password reset for ${userId}; their sessions are ended` };
    }
    case "user end-sessions": {
      const userId = await userIdOf(positional(args, 2, "userId or email"));
      const result = await endAllUserSessions(userId, CLI_ACTOR, "admin");
      return { json: result, human: `${userId}: ${result.sessionsEnded} open session${result.sessionsEnded === 1 ? "" : "s"} ended` };
    }
    case "user mfa-reset": {
      const userId = await userIdOf(positional(args, 2, "userId or email"));
      const result = await resetTwoFactor(userId, CLI_ACTOR);
      return { json: result, human: `${userId}: two-factor sign-in reset${result.wasEnabled ? "" : " (it was not on)"}; ${result.sessionsEnded} session${result.sessionsEnded === 1 ? "" : "s"} ended` };
    }
    case "partner suspend":
    case "partner resume": {
      const partnerId = positional(args, 2, "partnerId");
      const suspended = args[1] === "suspend";
      await setPartnerSuspended({ partnerId, suspended, actor: CLI_ACTOR });
      return { json: { partnerId, suspended }, human: `${partnerId} ${suspended ? "suspended" : "resumed"}` };
    }
    case "partner set-callback": {
      const partnerId = positional(args, 2, "partnerId");
      const callbackUrl = await updatePartnerCallbackUrl({ partnerId, url: required(values, "callback-url"), actor: CLI_ACTOR });
      return { json: { partnerId, callbackUrl }, human: `${partnerId} callbacks go to ${callbackUrl}` };
    }
    case "partner rotate-secret": {
      const partnerId = positional(args, 2, "partnerId");
      const rotated = await rotateWebhookSecret({ partnerId, overlapHours: overlapHours(values), actor: CLI_ACTOR });
      return {
        json: { partnerId, ...rotated },
        human: `webhook secret ${rotated.webhookSecret}   (shown once)\nthe previous secret also signs until ${rotated.previousExpiresAt}`,
      };
    }
    case "partner set-credential": {
      const partnerId = positional(args, 2, "partnerId");
      const header = values.clear ? null : { name: required(values, "header-name"), value: required(values, "header-value") };
      await setPartnerOutboundCredential({ partnerId, header, actor: CLI_ACTOR });
      return { json: { partnerId, header: header?.name ?? null }, human: header ? `callbacks to ${partnerId} carry ${header.name}` : `outbound credential removed for ${partnerId}` };
    }
    case "key rotate": {
      const keyId = positional(args, 2, "keyId");
      const rotated = await rotateApiKey({ keyId, overlapHours: overlapHours(values), actor: CLI_ACTOR });
      return {
        json: { keyId: rotated.keyId, apiKey: rotated.apiKey, oldKeyId: keyId, oldKeyExpiresAt: rotated.oldKeyExpiresAt },
        human: `key ${rotated.keyId}\nAPI key ${rotated.apiKey}   (shown once)\nold key ${keyId} expires at ${rotated.oldKeyExpiresAt}`,
      };
    }
    case "store add": {
      const store = await addStore({ name: required(values, "name"), npi: (values.npi ?? [])[0] ?? "", dea: values.dea ?? null, actor: CLI_ACTOR });
      return { json: store, human: `store ${store.storeId}` };
    }
    case "store list": {
      const stores = await listStores();
      const human = stores
        .map(
          (s) =>
            `${s.storeId}  ${s.npi}  ${s.name}${s.configured ? " (PHARMACY_NPI)" : ""}  state schedules: ${formatExtraSchedules(s.extraSchedules) || "none"}  non-controlled Rx valid ${s.rxExpiryMonths} months`,
        )
        .join("\n");
      return { json: { stores }, human: human || "no stores" };
    }
    case "store rules": {
      const storeRef = positional(args, 2, "storeId or NPI");
      const text = values["extra-schedules"];
      const monthsText = values["rx-expiry-months"];
      if (text === undefined && monthsText === undefined) throw new CliUsageError("give --extra-schedules and/or --rx-expiry-months");
      let rxExpiryMonths: number | undefined;
      if (monthsText !== undefined) {
        rxExpiryMonths = Number(monthsText);
        if (monthsText.trim() === "" || !Number.isInteger(rxExpiryMonths)) throw new DomainError("invalid_input", "--rx-expiry-months must be a whole number of months (1-60)");
      }
      const rules = await setStoreRules({ storeRef, change: { extraSchedules: text === undefined ? undefined : extraSchedulesOption(text), rxExpiryMonths }, actor: CLI_ACTOR });
      return {
        json: rules,
        human: `${rules.storeId} (${rules.npi})  state schedules: ${formatExtraSchedules(rules.extraSchedules) || "none"}  non-controlled Rx valid ${rules.rxExpiryMonths} months${rules.reclassified ? `; ${rules.reclassified} pending transfers classified again` : ""}`,
      };
    }
    case "store remove": {
      const storeId = positional(args, 2, "storeId");
      await removeStore({ storeId, actor: CLI_ACTOR });
      return { json: { storeId, removed: true }, human: `removed ${storeId}` };
    }
    case "audit verify": {
      const report = await verifyAuditChain({ expectedHead: expectedHeadOption(values) });
      if (report.ok) {
        const head = report.head ? `; head ${report.head.id} ${report.head.hash}` : "";
        return { json: report, human: `audit chain intact: ${report.records} records${values.head ? ", the recorded head is in it" : ""}${head}` };
      }
      const b = report.brokenAt;
      return {
        json: report,
        human: `audit chain BROKEN at record ${b.id} (${b.at}, ${b.action}): ${b.reason}; ${report.records} records before it verified`,
        exitCode: 1,
      };
    }
    case "secrets rotate-key": {
      const report = await rotateStoredSecrets(CLI_ACTOR);
      return {
        json: report,
        human: `${report.resealed} of ${report.secrets} stored secrets re-sealed under key ${report.keyId} (${report.alreadyCurrent} already were; ${report.partners} partners)`,
      };
    }
    case "audit list": {
      const page = await queryAuditLog(parseAuditQuery(auditParams(values)));
      const human = page.items.length
        ? page.items.map((e) => `${e.id}  ${e.at}  ${e.actor}  ${e.action}${e.transferId ? `  ${e.transferId}` : ""}`).join("\n") +
          (page.nextCursor ? `\nmore: --cursor ${page.nextCursor}` : "")
        : "no records";
      return { json: page, human };
    }
    case "audit export": {
      const exported = await exportAuditLog({ query: parseAuditQuery(auditParams(values)), actor: CLI_ACTOR });
      let csv = "";
      for await (const line of exported.lines) csv += line;
      return { json: { filename: exported.filename, records: exported.records, csv }, human: csv.replace(/\r\n$/, "") };
    }
    case "transfers export": {
      const query = parseTransferExportQuery({ from: required(values, "from"), to: required(values, "to"), schedule: values.schedule, outcome: values.outcome });
      const exported = await exportTransfers(query, CLI_ACTOR);
      const summary = { filename: exported.filename, rows: exported.rows, filters: { from: query.from, to: query.to, schedule: query.schedule, outcome: query.outcome } };
      if (values.out) {
        await writeLines(values.out, exported.lines);
        return { json: { ...summary, out: values.out }, human: `${exported.rows} transfers written to ${values.out}` };
      }
      if (values.json) {
        let csv = "";
        for await (const line of exported.lines) csv += line;
        return { json: { ...summary, csv }, human: csv };
      }
      return { json: summary, human: "", stream: exported.lines };
    }
    default:
      throw new CliUsageError(`unknown command: ${args.join(" ") || "(none)"}; see npm run cli -- help`);
  }
}
