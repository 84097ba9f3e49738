// `store …`: this pharmacy's stores and their drug rules (the same operations and input schemas as
// Administration → Stores).
import { StoreInputSchema } from "@/lib/stores/store-inputs";
import { CLI_ACTOR } from "@/lib/audit/actor";
import { CliUsageError, type CliCommand } from "@/lib/cli/command-table";
import { parseFlags, wholeNumber } from "@/lib/cli/flag-input";
import { setImmediateConfirmPolicy } from "@/lib/immediate-confirm/set-immediate-confirm-policy";
import { PolicyChangeSchema } from "@/lib/immediate-confirm/policy-rules";
import { addStore } from "@/lib/stores/add-store";
import { listStores } from "@/lib/stores/list-stores";
import { removeStore } from "@/lib/stores/remove-store";
import { setStoreRules, StoreRulesChangeSchema } from "@/lib/stores/set-store-rules";
import { formatExtraSchedules, parseExtraSchedulesText } from "@/lib/stores/store-rules";

const rulesText = (r: { extraSchedules: Parameters<typeof formatExtraSchedules>[0]; rxExpiryMonths: number }) =>
  `state schedules: ${formatExtraSchedules(r.extraSchedules) || "none"}  non-controlled Rx valid ${r.rxExpiryMonths} months`;

export const STORE_COMMANDS: readonly CliCommand[] = [
  {
    noun: "store",
    verb: "add",
    flags: [
      { name: "name", value: "<name>", required: true },
      { name: "npi", value: "<npi>", required: true },
      { name: "dea", value: "<dea>" },
    ],
    summary: ["another store of this pharmacy (a receivingPharmacy NPI requests may name)"],
    async run({ values }) {
      const input = parseFlags(StoreInputSchema, values, { name: "name", npi: "npi", dea: "dea" });
      const store = await addStore({ name: input.name, npi: input.npi, dea: input.dea || null, actor: CLI_ACTOR });
      return { json: store, human: `store ${store.storeId}` };
    },
  },
  {
    noun: "store",
    verb: "list",
    summary: ["stores with their state schedules and prescription validity"],
    async run() {
      const stores = await listStores();
      const human = stores
        .map((s) => `${s.storeId}  ${s.npi}  ${s.name}${s.configured ? " (PHARMACY_NPI)" : ""}  ${rulesText(s)}`)
        .join("\n");
      return { json: { stores }, human: human || "no stores" };
    },
  },
  {
    noun: "store",
    verb: "remove",
    args: [{ name: "storeId" }],
    summary: ["remove a store"],
    async run({ args: [storeId = ""] }) {
      await removeStore({ storeId, actor: CLI_ACTOR });
      return { json: { storeId, removed: true }, human: `removed ${storeId}` };
    },
  },
  {
    noun: "store",
    verb: "rules",
    args: [{ name: "storeId|npi" }],
    flags: [
      { name: "extra-schedules", value: '"gabapentin:V, ..."' },
      { name: "rx-expiry-months", value: "<n>" },
    ],
    summary: [
      'a store\'s drug rules: state schedules on top of the federal table ("" clears),',
      "months a non-controlled prescription stays valid (default 12)",
    ],
    async run({ args: [storeRef = ""], values }) {
      if (values["extra-schedules"] === undefined && values["rx-expiry-months"] === undefined) {
        throw new CliUsageError("give --extra-schedules and/or --rx-expiry-months");
      }
      const change = parseFlags(StoreRulesChangeSchema, values, {
        extraSchedules: { flag: "extra-schedules", from: parseExtraSchedulesText },
        rxExpiryMonths: { flag: "rx-expiry-months", from: wholeNumber },
      });
      const rules = await setStoreRules({ storeRef, change, actor: CLI_ACTOR });
      return {
        json: rules,
        human: `${rules.storeId} (${rules.npi})  ${rulesText(rules)}${rules.reclassified ? `; ${rules.reclassified} pending transfers classified again` : ""}`,
      };
    },
  },
  {
    noun: "store",
    verb: "immediate-confirm",
    args: [{ name: "storeId|npi" }],
    flags: [
      { name: "enabled", value: "on|off" },
      { name: "owner", value: "<pharmacist user id>" },
      { name: "state", value: "<XX>" },
      { name: "board-rule", value: '"<the rule relied on>"' },
      { name: "listed-allergies", value: "on|off" },
      { name: "hourly-cap", value: "<n>" },
      { name: "verify-within-hours", value: "<n>" },
    ],
    summary: [
      "a store's immediate confirmation (off by default): CONFIRMED at intake for qualifying transfers,",
      "each still received and verified by a pharmacist (docs/operators/immediate-confirmation.md)",
    ],
    async run({ args: [storeRef = ""], values }) {
      const change = parseFlags(PolicyChangeSchema, values, {
        enabled: { flag: "enabled", from: onOff },
        ownerUserId: "owner",
        state: "state",
        boardRule: "board-rule",
        allowListedAllergies: { flag: "listed-allergies", from: onOff },
        hourlyCap: { flag: "hourly-cap", from: wholeNumber },
        verifyWithinHours: { flag: "verify-within-hours", from: wholeNumber },
      });
      const p = await setImmediateConfirmPolicy({ storeRef, change, actor: CLI_ACTOR });
      return {
        json: p,
        human: `${p.storeId}  immediate confirmation ${p.enabled ? "ON" : "off"}  policy v${p.version}  owner ${p.ownerUserId ?? "none"}  state ${p.state ?? "-"}  cap ${p.hourlyCap}/h  verify within ${p.verifyWithinHours} h  listed allergies ${p.allowListedAllergies ? "allowed" : "not allowed"}`,
      };
    },
  },
];

function onOff(text: string): boolean {
  if (text === "on") return true;
  if (text === "off") return false;
  throw new Error('must be "on" or "off"');
}
