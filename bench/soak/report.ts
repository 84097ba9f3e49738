// How a soak reports: its checks one a line, its result written to bench/results, and the single-instance
// soak's summary table with the errors of the server's log.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../support";
import type { Check } from "./check-builder";
import type { Timeline } from "./chaos";
import type { CheckNumbers } from "./checks";
import type { DecisionStats } from "./pharmacists";
import type { IntakeStats } from "./senders";
import { say } from "./util";

/** Each check on a line (ok or FAIL, with how many were checked and failed), its first failures below it. */
export function printChecks(checks: readonly Check[]): void {
  for (const c of checks) {
    say(
      `  ${c.ok ? "ok  " : "FAIL"} ${c.name}${c.checked ? ` (${c.checked} checked${c.failures ? `, ${c.failures} failed` : ""})` : ""}`,
    );
    for (const e of c.examples) say(`         ${e}`);
  }
}

/** Writes the run's result as JSON to bench/results/<fileName>; returns the file's path. */
export function writeSoakResult(fileName: string, result: unknown): string {
  const dir = path.join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, fileName);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}

function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join("\n");
}

/** Error-level lines of the server's log, grouped by message (warnings are expected: failed callback attempts). */
export function summarizeServerLog(file: string): {
  errorLines: number;
  errorMessages: Record<string, number>;
  warnLines: number;
} {
  if (!existsSync(file)) return { errorLines: 0, errorMessages: {}, warnLines: 0 };
  const messages: Record<string, number> = {};
  let errors = 0;
  let warns = 0;
  for (const text of readFileSync(file, "utf8").split("\n")) {
    if (!text.startsWith("{")) continue;
    try {
      const entry = JSON.parse(text) as { level?: string; msg?: string };
      if (entry.level === "warn") warns++;
      if (entry.level === "error") {
        errors++;
        messages[entry.msg ?? "?"] = (messages[entry.msg ?? "?"] ?? 0) + 1;
      }
    } catch {
      // not one of ours
    }
  }
  return { errorLines: errors, errorMessages: messages, warnLines: warns };
}

export function summaryTable(
  seconds: { total: number; load: number; drain: number; serverDown: number },
  timeline: Timeline,
  outage: { down: number; failing: number },
  intake: IntakeStats,
  decisions: DecisionStats,
  n: CheckNumbers,
  log: ReturnType<typeof summarizeServerLog>,
): string {
  const other =
    Object.entries(intake.otherStatus)
      .map(([s, c]) => `${s}×${c}`)
      .join(" ") || "0";
  return table([
    ["duration", `${seconds.total} s total: ${seconds.load} s load, ${seconds.drain} s after it until checked`],
    [
      "server kills / restarts",
      `${timeline.kills.length} / ${timeline.kills.length} at ${timeline.kills.map((k) => `${k.atSecond.toFixed(0)} s`).join(", ")}; down ${seconds.serverDown} s in all (restart ${timeline.kills.map((k) => k.restartSeconds.toFixed(1)).join(", ")} s)`,
    ],
    ["receiver outage", `${outage.down} s refusing + ${outage.failing} s answering 500/503`],
    ["intake requests sent", String(intake.requests)],
    ["  200", `${intake.ok200} (${intake.replayed200} replayed)`],
    ["  503 / connection errors / timeouts", `${intake.status503} / ${intake.connectionErrors} / ${intake.timeouts}`],
    ["  500 / other", `${intake.status500} / ${other}`],
    [
      "  retries (unacknowledged)",
      `${intake.retries} (${intake.lostAnswersReplayed} found their transfer already stored: answer lost, first answer replayed)`,
    ],
    ["  deliberate replays / concurrent pairs", `${intake.deliberateReplays} / ${intake.concurrentPairs}`],
    [
      "transfers sent / acknowledged",
      `${n.transfersSent} / ${n.transfersAcked} (${intake.abandoned} abandoned unacknowledged)`,
    ],
    ["transfers stored", `${n.transfersStored} (${n.storedNotAcked} stored without a 200 reaching the sender)`],
    [
      "decision requests sent",
      `${decisions.requests} (2xx ${decisions.ok2xx}, 409 ${decisions.status409}, 503 ${decisions.status503}, connection errors ${decisions.connectionErrors}, timeouts ${decisions.timeouts}, 500 ${decisions.status500}, retries ${decisions.retries})`,
    ],
    [
      "decisions acknowledged",
      `${n.decisionsAcked} (+${n.decisionsConfirmedAfterRetry} confirmed by a 409 after a lost answer; ${decisions.races} races, ${n.decisionsLostRace} lost; ${n.decisionsUnresolved} unresolved)`,
    ],
    ["decisions in the database", String(n.decisionsInDb)],
    [
      "callbacks delivered",
      `${n.callbacksDelivered}/${n.callbacksInDb} webhook-ids (database DELIVERED ${n.callbacksDeliveredInDb}); receiver saw ${n.receiverRequests} requests, ${n.receiverRequests2xx} answered 2xx`,
    ],
    [
      "duplicate deliveries",
      `${n.duplicateDeliveries} (over ${n.webhookIdsWithDuplicates} webhook-ids); ${n.interruptedAttempts} attempts cut short by a kill`,
    ],
    ["missing callbacks", String(n.missingCallbacks)],
    [
      "delivery lag (decision → first 2xx)",
      `max ${(n.maxDeliveryLagMs / 1000).toFixed(1)} s, p99 ${(n.p99DeliveryLagMs / 1000).toFixed(1)} s, p50 ${(n.p50DeliveryLagMs / 1000).toFixed(2)} s`,
    ],
    [
      "server log",
      `${log.errorLines} error lines${
        log.errorLines
          ? ` (${Object.entries(log.errorMessages)
              .map(([m, c]) => `${m}×${c}`)
              .join(", ")})`
          : ""
      }, ${log.warnLines} warnings`,
    ],
  ]);
}
