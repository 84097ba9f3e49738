// `partner …`: sending partners (the same operations and input schemas as Administration → Partners).
import { percent } from "@/lib/partners/failure-rate";
import {
  CallbackUrlInputSchema,
  CreatePartnerInputSchema,
  OutboundCredentialInputSchema,
  RotateWebhookSecretInputSchema,
  UpdatePartnerInputSchema,
} from "@/lib/partners/partner-inputs";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { CliUsageError, requiredFlag, switchFlag, textFlag, type CliCommand } from "@/lib/cli/command-table";
import { parseFlags } from "@/lib/cli/flag-input";
import { DEFAULT_OVERLAP_HOURS } from "@/lib/partners/credential-rules";
import { createPartner } from "@/lib/partners/create-partner";
import { getPartnerDetails } from "@/lib/partners/get-partner-details";
import { listPartners } from "@/lib/partners/list-partners";
import { rotateWebhookSecret } from "@/lib/partners/rotate-webhook-secret";
import { setPartnerOutboundCredential } from "@/lib/partners/set-partner-outbound-credential";
import { setPartnerSuspended } from "@/lib/partners/set-partner-suspended";
import { updatePartnerCallbackUrl } from "@/lib/partners/update-partner-callback-url";
import { updatePartnerProfile } from "@/lib/partners/update-partner-profile";

const partnerId = [{ name: "partnerId" }] as const;

function suspension(verb: "suspend" | "resume"): CliCommand {
  return {
    noun: "partner",
    verb,
    args: partnerId,
    summary: [
      verb === "suspend" ? "refuse the partner's requests until it is resumed" : "accept the partner's requests again",
    ],
    async run({ args: [id = ""] }) {
      const suspended = verb === "suspend";
      await setPartnerSuspended({ partnerId: id, suspended, actor: CLI_ACTOR });
      return { json: { partnerId: id, suspended }, human: `${id} ${suspended ? "suspended" : "resumed"}` };
    },
  };
}

export const PARTNER_COMMANDS: readonly CliCommand[] = [
  {
    noun: "partner",
    verb: "create",
    flags: [
      { name: "name", value: "<name>", required: true },
      { name: "callback-url", value: "<url>", required: true },
      { name: "npi", value: "<npi>", multiple: true },
    ],
    summary: ["create a sending partner with an API key, an OAuth client and a webhook secret"],
    async run({ values }) {
      const input = parseFlags(CreatePartnerInputSchema, values, {
        name: "name",
        callbackUrl: "callback-url",
        npis: "npi",
      });
      const p = await createPartner({ ...input, actor: CLI_ACTOR });
      const json = {
        partnerId: p.partnerId,
        apiKey: p.apiKey,
        clientId: p.clientId,
        clientSecret: p.clientSecret,
        webhookSecret: p.webhookSecret,
      };
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
    },
  },
  {
    noun: "partner",
    verb: "list",
    summary: ["list partners with their keys and clients"],
    async run() {
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
    },
  },
  {
    noun: "partner",
    verb: "show",
    args: partnerId,
    summary: ["one partner: keys, OAuth clients, traffic (24 h / 7 d) and callback health"],
    async run({ args: [id = ""] }) {
      const details = await getPartnerDetails(id);
      const active = details.apiKeys.filter((k) => k.state === "active");
      return {
        json: details,
        human: [
          `${details.partnerId}  ${details.name}${details.suspended ? " (suspended)" : ""}`,
          `callbacks to   ${details.callbackUrl}  (endpoint ${details.callbacks.state})`,
          `NPIs           ${details.npis.join(", ") || "any"}`,
          ...(details.npiWarning ? [`warning        ${details.npiWarning}`] : []),
          `received       ${details.traffic.last24h} in 24 h, ${details.traffic.last7d} in 7 days, last ${details.traffic.lastReceivedAt ?? "never"}`,
          `failure rate   ${percent(details.answerRate.failureRate)} of ${details.answerRate.answers} answers in the last hour (5xx, 408, 429, timeouts; the sender cuts off above 50 %); ${details.answerRate.clientErrors} 4xx ERROR apart`,
          ...(details.refusedCallbacks.length
            ? [
                `refused        ${details.refusedCallbacks.length} callback(s) refused by the sender (callbacks list --status REFUSED)`,
              ]
            : []),
          `API keys       ${active.map((k) => `${k.keyId} ${k.display}`).join(", ") || "none active"}`,
          `OAuth clients  ${
            details.oauthClients
              .filter((c) => c.state === "active")
              .map((c) => c.clientId)
              .join(", ") || "none active"
          }`,
        ].join("\n"),
      };
    },
  },
  {
    noun: "partner",
    verb: "update",
    args: partnerId,
    flags: [{ name: "name", value: "<name>" }, { name: "npi", value: "<npi>", multiple: true }, { name: "clear-npis" }],
    summary: ["rename a partner, or set the NPIs it may send from"],
    async run({ args: [id = ""], values }) {
      const clearNpis = switchFlag(values, "clear-npis");
      if (clearNpis && values.npi !== undefined) throw new CliUsageError("give --npi or --clear-npis, not both");
      if (textFlag(values, "name") === undefined && values.npi === undefined && !clearNpis)
        throw new CliUsageError("give --name, --npi or --clear-npis");
      const change = parseFlags(
        UpdatePartnerInputSchema,
        values,
        { name: "name", npis: "npi" },
        clearNpis ? { npis: [] } : {},
      );
      const updated = await updatePartnerProfile({ partnerId: id, change, actor: CLI_ACTOR });
      return {
        json: { partnerId: id, ...updated },
        human: `${id} ${updated.name}, NPIs: ${updated.npis.join(", ") || "any"}`,
      };
    },
  },
  suspension("suspend"),
  suspension("resume"),
  {
    noun: "partner",
    verb: "set-callback",
    args: partnerId,
    flags: [{ name: "callback-url", value: "<url>", required: true }],
    summary: ["where the partner's callbacks go"],
    async run({ args: [id = ""], values }) {
      const input = parseFlags(CallbackUrlInputSchema, values, { callbackUrl: "callback-url" });
      const callbackUrl = await updatePartnerCallbackUrl({ partnerId: id, url: input.callbackUrl, actor: CLI_ACTOR });
      return { json: { partnerId: id, callbackUrl }, human: `${id} callbacks go to ${callbackUrl}` };
    },
  },
  {
    noun: "partner",
    verb: "rotate-secret",
    args: partnerId,
    flags: [{ name: "overlap-hours", value: "<h>" }],
    summary: [`new webhook secret; both sign until the overlap ends (default ${DEFAULT_OVERLAP_HOURS})`],
    async run({ args: [id = ""], values }) {
      const { overlapHours } = parseFlags(
        RotateWebhookSecretInputSchema,
        values,
        { overlapHours: "overlap-hours" },
        { overlapHours: DEFAULT_OVERLAP_HOURS },
      );
      const rotated = await rotateWebhookSecret({ partnerId: id, overlapHours, actor: CLI_ACTOR });
      return {
        json: { partnerId: id, ...rotated },
        human: `webhook secret ${rotated.webhookSecret}   (shown once)\nthe previous secret also signs until ${rotated.previousExpiresAt}`,
      };
    },
  },
  {
    noun: "partner",
    verb: "set-credential",
    args: partnerId,
    flags: [{ name: "header-name", value: "<name>" }, { name: "header-value", value: "<value>" }, { name: "clear" }],
    synopsis: "--header-name <name> --header-value <value> | --clear",
    summary: ["the partner's own credential header on our callbacks (stored encrypted)"],
    async run({ args: [id = ""], values }) {
      const clear = switchFlag(values, "clear");
      if (clear && (values["header-name"] !== undefined || values["header-value"] !== undefined))
        throw new CliUsageError("give --header-name and --header-value, or --clear, not both");
      if (!clear) for (const name of ["header-name", "header-value"]) requiredFlag(values, name);
      const header = clear
        ? null
        : parseFlags(OutboundCredentialInputSchema, values, { headerName: "header-name", headerValue: "header-value" });
      await setPartnerOutboundCredential({
        partnerId: id,
        header: header && { name: header.headerName, value: header.headerValue },
        actor: CLI_ACTOR,
      });
      return {
        json: { partnerId: id, header: header?.headerName ?? null },
        human: header ? `callbacks to ${id} carry ${header.headerName}` : `outbound credential removed for ${id}`,
      };
    },
  },
];
