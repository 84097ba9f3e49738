// `callbacks …`: the callbacks owed to senders, by status (REFUSED: the sender's callback API answered
// RX_CALLBACK_ERROR, with its error.type and description), and "redeliver" once the cause is fixed.
import { CLI_ACTOR } from "@/lib/audit/actor";
import { CliUsageError, textFlag, type CliCommand } from "@/lib/cli/command-table";
import { CALLBACK_STATUSES, listCallbacks } from "@/lib/callbacks/list-callbacks";
import { requestRedelivery } from "@/lib/callbacks/redeliver-callback";

export const CALLBACK_COMMANDS: readonly CliCommand[] = [
  {
    noun: "callbacks",
    verb: "list",
    flags: [
      { name: "status", value: CALLBACK_STATUSES.join("|") },
      { name: "partner", value: "<partnerId>" },
      { name: "limit", value: "<n>" },
    ],
    summary: [
      "callbacks to senders, newest first (default 50), with the last answer; a REFUSED",
      "one shows the sender's RX_CALLBACK_ERROR type and description",
    ],
    async run({ values }) {
      const limitText = textFlag(values, "limit");
      if (limitText !== undefined && !/^\d+$/.test(limitText)) throw new CliUsageError("--limit must be a number");
      const callbacks = await listCallbacks({
        status: textFlag(values, "status")?.toUpperCase(),
        partnerId: textFlag(values, "partner"),
        limit: limitText === undefined ? undefined : Number(limitText),
      });
      const human = callbacks.length
        ? callbacks
            .map((c) => {
              const refused =
                c.status === "REFUSED"
                  ? `  refused by the sender: ${[c.senderErrorType, c.senderErrorDescription].filter(Boolean).join(": ") || "RX_CALLBACK_ERROR"}`
                  : c.status !== "DELIVERED" && c.lastError
                    ? `  last: ${c.lastError}`
                    : "";
              return `${c.referenceID}  ${c.status.padEnd(9)}  ${c.partnerId}  ${c.attemptCount} attempt(s)${refused}`;
            })
            .join("\n")
        : "no callbacks";
      return { json: { callbacks }, human };
    },
  },
  {
    noun: "callbacks",
    verb: "redeliver",
    args: [{ name: "referenceID" }],
    summary: ["send the transfer's callback again now (a REFUSED one once its cause is fixed); audited"],
    async run({ args: [referenceID = ""] }) {
      const { callbackId } = await requestRedelivery(referenceID, CLI_ACTOR);
      return {
        json: { referenceID, callbackId, queued: true },
        human: `redelivery of ${callbackId} queued; a worker sends it within moments (see callbacks list)`,
      };
    },
  },
];
