// Check 3 after a soak: every acknowledged decision is stored once, as the pharmacist sent it, races have a
// single winner, and nothing was decided that no pharmacist asked for.
import type pg from "pg";
import { CheckBuilder, sameJson } from "./check-builder";
import type { DecisionAttempt, DecisionTarget } from "./pharmacists";

export type DecisionRow = {
  transfer_id: string;
  decision: "APPROVED" | "REJECTED";
  user_id: string;
  pharmacist_name: string;
  decided_at: Date;
  error_type: string | null;
  description: string | null;
  drug_schedule: string | null;
  note: string | null;
  local_rx_number: string | null;
  /** transfers.drug_schedule: the drug's schedule as classified at intake ("IV", "none", …). */
  intake_schedule: string | null;
};

/**
 * What the decision row must hold for a decision sent with `body` (the API trims, and drops empty text). The
 * schedule of an approval is the drug's (the soak's pharmacists send none), recorded as "CIV".
 */
function expectedFields(attempt: DecisionAttempt, intakeSchedule: string | null) {
  const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
  if (attempt.kind === "approve") {
    return {
      decision: "APPROVED",
      error_type: null,
      description: null,
      drug_schedule: intakeSchedule && ["II", "III", "IV", "V"].includes(intakeSchedule) ? `C${intakeSchedule}` : null,
      note: text(attempt.body.note),
      local_rx_number: text(attempt.body.localRxNumber),
    };
  }
  return {
    decision: "REJECTED",
    error_type: attempt.body.errorType as string,
    description: text(attempt.body.description),
    drug_schedule: null,
    note: null,
    local_rx_number: null,
  };
}

export async function checkDecisions(
  client: pg.Client,
  partnerIds: string[],
  targets: Map<string, DecisionTarget>,
  statusById: Map<string, string>,
) {
  const decisions = new CheckBuilder(
    "every acknowledged decision is stored once, as decided, and nothing else was decided",
  );
  const { rows: decisionRows } = await client.query<DecisionRow>(
    `SELECT d.transfer_id, d.decision::text AS decision, d.user_id, d.pharmacist_name, d.decided_at, d.error_type, d.description,
              d.drug_schedule, d.note, d.local_rx_number, t.drug_schedule AS intake_schedule
         FROM transfer_decisions d JOIN transfers t ON t.id = d.transfer_id WHERE t.partner_id = ANY($1)`,
    [partnerIds],
  );
  const decisionByTransfer = new Map<string, DecisionRow[]>();
  for (const d of decisionRows)
    decisionByTransfer.set(d.transfer_id, [...(decisionByTransfer.get(d.transfer_id) ?? []), d]);
  const counts = { acked: 0, confirmed: 0, lostRace: 0, unresolved: 0 };
  for (const target of targets.values()) {
    for (const a of target.attempts) {
      if (a.result === "acked") counts.acked++;
      if (a.result === "confirmed-after-retry") counts.confirmed++;
      if (a.result === "lost-race") counts.lostRace++;
      if (a.result === "unresolved" || a.result === "pending") counts.unresolved++;
    }
    const winners = target.attempts.filter((a) => a.result === "acked" || a.result === "confirmed-after-retry");
    const rows = decisionByTransfer.get(target.referenceID) ?? [];
    decisions.expect(
      winners.length <= 1,
      () =>
        `${target.referenceID}: ${winners.length} decisions were acknowledged (${winners.map((w) => `${w.kind} by ${w.pharmacistName}`).join(", ")})`,
    );
    const winner = winners[0];
    if (winner) {
      const status = statusById.get(target.referenceID);
      const want = winner.kind === "approve" ? "CONFIRMED" : "REJECTED";
      decisions.expect(
        status === want,
        () => `${target.referenceID}: ${winner.kind} acknowledged, but the transfer is ${status ?? "missing"}`,
      );
      decisions.expect(
        rows.length === 1,
        () => `${target.referenceID}: ${winner.kind} acknowledged, ${rows.length} decision rows`,
      );
      const row = rows[0];
      if (row) {
        const fields = expectedFields(winner, row.intake_schedule);
        const got = {
          decision: row.decision,
          error_type: row.error_type,
          description: row.description,
          drug_schedule: row.drug_schedule,
          note: row.note,
          local_rx_number: row.local_rx_number,
        };
        decisions.expect(
          sameJson(got, fields) && row.user_id === winner.pharmacistId,
          () =>
            `${target.referenceID}: decision row ${JSON.stringify({ ...got, by: row.pharmacist_name })} is not what ${winner.pharmacistName} sent ${JSON.stringify(fields)}`,
        );
      }
    }
    if (target.raced) {
      decisions.expect(
        target.attempts.some((a) => a.result === "lost-race") ||
          winners.length === 1 ||
          target.attempts.every((a) => a.result === "unresolved"),
        () =>
          `${target.referenceID}: race without a single winner (${target.attempts.map((a) => a.result).join(", ")})`,
      );
    }
  }
  for (const [transferId, rows] of decisionByTransfer) {
    const target = targets.get(transferId);
    for (const row of rows) {
      const kind = row.decision === "APPROVED" ? "approve" : "reject";
      decisions.expect(
        target?.attempts.some((a) => a.kind === kind && a.pharmacistId === row.user_id) ?? false,
        () => `${transferId}: ${row.decision} by ${row.pharmacist_name} was never asked for`,
      );
    }
  }
  for (const [id, status] of statusById) {
    const rows = decisionByTransfer.get(id) ?? [];
    const consistent =
      status === "RECEIVED"
        ? rows.length === 0
        : rows.length === 1 && (rows[0]!.decision === "APPROVED") === (status === "CONFIRMED");
    decisions.expect(
      consistent,
      () => `${id}: status ${status} with decision rows ${rows.map((r) => r.decision).join(", ") || "none"}`,
    );
  }
  return { check: decisions.done(), decisionRows, decisionByTransfer, counts };
}
