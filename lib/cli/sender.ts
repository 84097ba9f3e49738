// `sender simulate`: plays the sending platform against a running service (lib/sender-sim): no database of
// its own, only HTTP to the service and a callback API on 127.0.0.1.
import { randomBytes } from "node:crypto";
import { CliUsageError, requiredFlag, textFlag, type CliCommand } from "@/lib/cli/command-table";
import { reportText, simulatedRequests, startSenderSimulation } from "@/lib/sender-sim/simulate-sender";

function numberFlag(text: string | undefined, name: string, fallback: number, ok: (n: number) => boolean): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n) || !ok(n))
    throw new CliUsageError(`--${name}: not a valid value: ${text}`);
  return n;
}

export const SENDER_COMMANDS: readonly CliCommand[] = [
  {
    noun: "sender",
    verb: "simulate",
    database: false,
    flags: [
      { name: "url", value: "<base url>", required: true },
      { name: "key", value: "<api key>", required: true },
      { name: "count", value: "<n>" },
      { name: "refuse-share", value: "<0..1>" },
      { name: "time-scale", value: "<factor>" },
      { name: "callback-port", value: "<port>" },
      { name: "receiving-npi", value: "<npi>" },
      { name: "sending-npi", value: "<npi>" },
    ],
    summary: [
      "play the sending platform: POST --count transfers (default 5) with the key,",
      "retry 408/429/5xx at 3, 9, 27 min with retryCount, answer callbacks on 127.0.0.1",
      "(the partner's callback URL: printed) with RX_CALLBACK_ERROR for --refuse-share",
      "of them (default 0), and report per transfer what the sender believes after 4 h:",
      "CONFIRMED, ERROR or missing. --time-scale multiplies every wait (0.001: 4 h is 14.4 s)",
    ],
    async run({ values }) {
      const count = numberFlag(
        textFlag(values, "count"),
        "count",
        5,
        (n) => Number.isInteger(n) && n >= 1 && n <= 10_000,
      );
      const refuseShare = numberFlag(textFlag(values, "refuse-share"), "refuse-share", 0, (n) => n >= 0 && n <= 1);
      const timeScale = numberFlag(textFlag(values, "time-scale"), "time-scale", 1, (n) => n > 0 && n <= 1);
      const callbackPort = numberFlag(
        textFlag(values, "callback-port"),
        "callback-port",
        0,
        (n) => Number.isInteger(n) && n >= 0 && n < 65536,
      );
      const sim = await startSenderSimulation({
        baseUrl: requiredFlag(values, "url"),
        apiKey: requiredFlag(values, "key"),
        timeScale,
        refuseShare,
        callbackPort,
      });
      try {
        process.stderr.write(`callback API listening at ${sim.callbackApi.url} (the partner's callback URL)\n`);
        const requests = simulatedRequests(count, {
          runId: randomBytes(3).toString("hex"),
          receivingNpi: textFlag(values, "receiving-npi"),
          sendingNpi: textFlag(values, "sending-npi"),
        });
        await Promise.all(requests.map((r) => sim.send(r)));
        process.stderr.write(`sent ${count} transfers; waiting for callbacks (the sender waits 4 h × ${timeScale})\n`);
        const report = await sim.report();
        return {
          json: { callbackUrl: sim.callbackApi.url, ...report },
          human: reportText(report),
          exitCode: report.totals.missing > 0 ? 1 : 0,
        };
      } finally {
        await sim.close();
      }
    },
  },
];
