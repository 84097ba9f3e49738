// After the soak: what the clients were told, what the database holds and what the receiver got, held
// against each other. Nothing here trusts the service's own bookkeeping alone: the stored request is
// compared with what was sent, decisions with what the pharmacists asked for, callbacks with what the
// receiver answered 2xx to, and signatures are checked with each partner's secret.
import pg from "pg";
import { verifyWebhook } from "@/lib/callbacks/verify-webhook";
import { hashRequestContent } from "@/lib/transfers/content-hash";
import type { TransferRequest } from "@/lib/transfers/wire";
import { percentile } from "../support";
import type { DecisionAttempt, DecisionStats, DecisionTarget } from "./pharmacists";
import type { Delivery } from "./receiver";
import type { IntakeStats, SentTransfer, SoakPartner } from "./senders";
import { requestDigest } from "./util";

export type Check = { name: string; ok: boolean; checked: number; failures: number; examples: string[] };

/** A check the run itself answers (no rows to count): passed, or failed with one line saying why. */
export function plainCheck(name: string, ok: boolean, detail: string): Check {
  return { name, ok, checked: 0, failures: ok ? 0 : 1, examples: ok ? [] : [detail] };
}

/** The checks every soak ends with: the drain finished in time, no 500 anywhere, and there was load. */
export function loadChecks(o: {
  drained: boolean;
  drainSeconds: number;
  intake: IntakeStats;
  decisionStats: DecisionStats;
  numbers: { transfersAcked: number; decisionsAcked: number };
}): Check[] {
  const { intake, decisionStats, numbers } = o;
  return [
    plainCheck("every decision's callback arrived within the drain time", o.drained, `${o.drainSeconds} s`),
    plainCheck(
      "no 500 answers and nothing unexpected from /v1/transfer",
      intake.status500 === 0 && intake.anomalies.length === 0,
      intake.anomalies.slice(0, 5).join(" | ") || "none",
    ),
    plainCheck(
      "no 500 answers and nothing unexpected from the dashboard API",
      decisionStats.status500 === 0 && decisionStats.anomalies.length === 0,
      decisionStats.anomalies.slice(0, 5).join(" | ") || "none",
    ),
    plainCheck(
      "there was load: acknowledged transfers and decisions",
      numbers.transfersAcked > 0 && numbers.decisionsAcked > 0,
      `${numbers.transfersAcked} transfers, ${numbers.decisionsAcked} decisions`,
    ),
  ];
}

export type CheckNumbers = {
  transfersSent: number;
  transfersAcked: number;
  transfersStored: number;
  storedNotAcked: number;
  decisionsAcked: number;
  decisionsConfirmedAfterRetry: number;
  decisionsLostRace: number;
  decisionsUnresolved: number;
  decisionsInDb: number;
  callbacksInDb: number;
  callbacksDelivered: number;
  callbacksDeliveredInDb: number;
  receiverRequests: number;
  receiverRequests2xx: number;
  duplicateDeliveries: number;
  webhookIdsWithDuplicates: number;
  missingCallbacks: number;
  maxDeliveryLagMs: number;
  p50DeliveryLagMs: number;
  p99DeliveryLagMs: number;
  /** The five callbacks that took longest, with every request of theirs the receiver saw (seconds after the decision). */
  slowestDeliveries: {
    transferId: string;
    callbackId: string;
    decidedAt: string;
    lagSeconds: number;
    seenAt: string[];
    attempts?: string[];
  }[];
  /** Attempts a kill cut short before any answer was recorded (the next one waited for the attempt's lease to run out). */
  interruptedAttempts: number;
};

class CheckBuilder {
  private checked = 0;
  private failed: string[] = [];
  constructor(readonly name: string) {}
  expect(ok: boolean, explain: () => string): void {
    this.checked++;
    if (!ok) this.failed.push(explain());
  }
  fail(text: string): void {
    this.failed.push(text);
  }
  done(): Check {
    return {
      name: this.name,
      ok: this.failed.length === 0,
      checked: this.checked,
      failures: this.failed.length,
      examples: this.failed.slice(0, 5),
    };
  }
}

type StoredRow = {
  id: string;
  partner_id: string;
  request_id: string;
  content_hash: string;
  status: string;
  rx_number: string;
  sending_npi: string;
  receiving_npi: string;
  patient_first_name: string;
  patient_last_name: string;
  request: TransferRequest;
};

type DecisionRow = {
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

type CallbackRow = { id: string; transfer_id: string; partner_id: string; status: string };

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

const sameJson = (a: unknown, b: unknown) => requestDigest({ v: a }) === requestDigest({ v: b });

/** Every stored transfer of the soak's partners, read in pages (each row carries its ~3 KB request). */
async function* storedTransfers(client: pg.Client, partnerIds: string[]): AsyncGenerator<StoredRow[]> {
  let after = "";
  for (;;) {
    const { rows } = await client.query<StoredRow>(
      `SELECT id, partner_id, request_id, content_hash, status::text AS status, rx_number, sending_npi, receiving_npi,
              patient_first_name, patient_last_name, request
         FROM transfers WHERE partner_id = ANY($1) AND id > $2 ORDER BY id LIMIT 2000`,
      [partnerIds, after],
    );
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
  }
}

export async function runChecks(input: {
  databaseUrl: string;
  partners: SoakPartner[];
  sent: Map<string, SentTransfer>;
  targets: Map<string, DecisionTarget>;
  deliveries: readonly Delivery[];
}): Promise<{ checks: Check[]; numbers: CheckNumbers }> {
  const { partners, sent, targets } = input;
  const partnerIds = partners.map((p) => p.partnerId);
  const partnerById = new Map(partners.map((p) => [p.partnerId, p]));
  const client = new pg.Client({ connectionString: input.databaseUrl });
  await client.connect();
  try {
    // ---- 1 and 2: transfers ----------------------------------------------------------------------
    const stored = new CheckBuilder("every acknowledged transfer is stored exactly once, as sent");
    const phantoms = new CheckBuilder("no transfer is stored that was never sent");
    const rowsByKey = new Map<string, string[]>();
    const statusById = new Map<string, string>();
    const transferKeyById = new Map<string, string>();
    let storedCount = 0;
    for await (const page of storedTransfers(client, partnerIds)) {
      for (const row of page) {
        storedCount++;
        const key = `${row.partner_id} ${row.request_id}`;
        rowsByKey.set(key, [...(rowsByKey.get(key) ?? []), row.id]);
        statusById.set(row.id, row.status);
        transferKeyById.set(row.id, key);
        const t = sent.get(key);
        phantoms.expect(
          t !== undefined,
          () => `stored ${row.id} (partner ${row.partner_id}, requestID ${row.request_id}) was never sent`,
        );
        if (!t) continue;
        const r = t.request;
        const problems: string[] = [];
        if (requestDigest(row.request) !== t.digest) problems.push("stored request differs from the one sent");
        if (!t.retryCounts.has(row.request.metadata.retryCount ?? -1))
          problems.push(`stored retryCount ${row.request.metadata.retryCount} was never sent`);
        if (row.content_hash !== hashRequestContent(r)) problems.push("content_hash is not the sent request's");
        if (row.rx_number !== r.prescription.rxNumber) problems.push("rx_number");
        if (row.sending_npi !== r.sendingPharmacy.npi) problems.push("sending_npi");
        if (row.receiving_npi !== r.receivingPharmacy.npi) problems.push("receiving_npi");
        if (row.patient_first_name !== r.patient.name.firstName || row.patient_last_name !== r.patient.name.lastName)
          problems.push("patient name");
        if (t.acked && !t.referenceIDs.has(row.id))
          problems.push(
            `row id ${row.id} is not the referenceID the sender was given (${[...t.referenceIDs].join(", ")})`,
          );
        stored.expect(problems.length === 0, () => `${t.requestID} → ${row.id}: ${problems.join("; ")}`);
      }
    }
    let acked = 0;
    let storedNotAcked = 0;
    for (const [key, t] of sent) {
      const ids = rowsByKey.get(key) ?? [];
      if (!t.acked) {
        if (ids.length > 0) storedNotAcked++;
        stored.expect(ids.length <= 1, () => `${t.requestID} (never acknowledged) is stored ${ids.length} times`);
        continue;
      }
      acked++;
      stored.expect(
        ids.length === 1,
        () =>
          `${t.requestID} got a 200 (referenceID ${[...t.referenceIDs].join(", ")}) but is stored ${ids.length} times`,
      );
      stored.expect(
        t.referenceIDs.size === 1,
        () =>
          `${t.requestID}: its 200 answers named ${t.referenceIDs.size} different referenceIDs (${[...t.referenceIDs].join(", ")})`,
      );
    }

    // ---- 3: decisions ----------------------------------------------------------------------------
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

    // ---- 4: callbacks ----------------------------------------------------------------------------
    const callbacks = new CheckBuilder("every decision's callback was delivered (2xx), signed, and says the decision");
    const { rows: callbackRows } = await client.query<CallbackRow>(
      `SELECT id, transfer_id, partner_id, status::text AS status FROM callbacks WHERE partner_id = ANY($1)`,
      [partnerIds],
    );
    const callbacksByTransfer = new Map<string, CallbackRow[]>();
    for (const c of callbackRows)
      callbacksByTransfer.set(c.transfer_id, [...(callbacksByTransfer.get(c.transfer_id) ?? []), c]);
    const deliveriesById = new Map<string, Delivery[]>();
    for (const d of input.deliveries) deliveriesById.set(d.webhookId, [...(deliveriesById.get(d.webhookId) ?? []), d]);

    let delivered = 0;
    let deliveredInDb = 0;
    let duplicates = 0;
    let withDuplicates = 0;
    let missing = 0;
    const lags: number[] = [];
    const slowest: CheckNumbers["slowestDeliveries"] = [];
    for (const [transferId, rows] of decisionByTransfer) {
      const row = rows[0]!;
      const cbs = callbacksByTransfer.get(transferId) ?? [];
      callbacks.expect(
        cbs.length === 1,
        () =>
          `${transferId}: ${cbs.length} webhook-ids (callbacks rows) for one decision: ${cbs.map((c) => c.id).join(", ")}`,
      );
      const target = targets.get(transferId);
      const ackedWith = target?.attempts.find((a) => a.callbackId)?.callbackId;
      for (const cb of cbs) {
        if (ackedWith)
          callbacks.expect(
            ackedWith === cb.id,
            () => `${transferId}: the decision's answer named callback ${ackedWith}, the database has ${cb.id}`,
          );
        if (cb.status === "DELIVERED") deliveredInDb++;
        const got = deliveriesById.get(cb.id) ?? [];
        const ok = got.filter((d) => d.status >= 200 && d.status < 300);
        callbacks.expect(
          ok.length > 0,
          () =>
            `${transferId}: callback ${cb.id} (${row.decision}) never answered 2xx at the receiver (${got.length} attempts seen, status in the database ${cb.status})`,
        );
        if (ok.length === 0) {
          missing++;
          continue;
        }
        delivered++;
        if (ok.length > 1) {
          duplicates += ok.length - 1;
          withDuplicates++;
        }
        const decidedAt = row.decided_at.getTime();
        lags.push(ok[0]!.at - decidedAt);
        slowest.push({
          transferId,
          callbackId: cb.id,
          decidedAt: row.decided_at.toISOString(),
          lagSeconds: Math.round((ok[0]!.at - decidedAt) / 100) / 10,
          seenAt: got.map((d) => `${((d.at - decidedAt) / 1000).toFixed(1)} s: ${d.status}`),
        });
        slowest.sort((a, b) => b.lagSeconds - a.lagSeconds).splice(5);
        const partner = partnerById.get(cb.partner_id);
        const transferKey = transferKeyById.get(transferId);
        const t = transferKey ? sent.get(transferKey) : undefined;
        for (const d of got) {
          const problems: string[] = [];
          if (!partner || d.path !== partner.path) problems.push(`arrived on ${d.path}, not the partner's path`);
          const verified = partner
            ? verifyWebhook({
                id: d.webhookId,
                timestamp: d.timestamp,
                signature: d.signature,
                body: d.body,
                secrets: [partner.webhookSecret],
                now: new Date(d.at),
              })
            : { ok: false as const, reason: "unknown partner" };
          if (!verified.ok) problems.push(`signature: ${verified.reason}`);
          if (d.body !== got[0]!.body) problems.push("body differs from the first attempt's");
          let body: {
            requestID?: string;
            metadata?: { responseType?: string; referenceID?: string; localRxNumber?: string };
            error?: { type?: string; description?: string };
            prescription?: unknown;
          } = {};
          try {
            body = JSON.parse(d.body) as typeof body;
          } catch {
            problems.push("body is not JSON");
          }
          const wantType = row.decision === "APPROVED" ? "CONFIRMED" : "ERROR";
          if (body.metadata?.responseType !== wantType)
            problems.push(`responseType ${body.metadata?.responseType} for ${row.decision}`);
          if (body.metadata?.referenceID !== transferId) problems.push(`referenceID ${body.metadata?.referenceID}`);
          if (!t || body.requestID !== t.requestID) problems.push(`requestID ${body.requestID} is not the sender's`);
          if (row.decision === "APPROVED") {
            if ((body.metadata?.localRxNumber ?? null) !== row.local_rx_number) problems.push("metadata.localRxNumber");
            if (t && !sameJson(body.prescription, t.request.prescription))
              problems.push("prescription is not the one sent");
          } else if (body.error?.type !== row.error_type || body.error?.description !== row.description) {
            problems.push("error type/description");
          }
          callbacks.expect(
            problems.length === 0,
            () => `${transferId} callback ${cb.id} delivery at ${new Date(d.at).toISOString()}: ${problems.join("; ")}`,
          );
        }
      }
    }
    for (const [transferId, cbs] of callbacksByTransfer) {
      if (!decisionByTransfer.has(transferId))
        callbacks.fail(`${transferId}: callbacks ${cbs.map((c) => c.id).join(", ")} without a decision`);
    }
    const known = new Set(callbackRows.map((c) => c.id));
    for (const [id, got] of deliveriesById) {
      if (!known.has(id))
        callbacks.fail(
          `the receiver got ${got.length} request(s) with webhook-id ${JSON.stringify(id)} that no callback has`,
        );
    }
    const settled = new CheckBuilder("every callback is DELIVERED in the database too");
    for (const c of callbackRows)
      settled.expect(c.status === "DELIVERED", () => `${c.id} (${c.transfer_id}) is ${c.status}`);

    // The database's own account of the slowest ones' attempts, and of the attempts a kill cut short.
    for (const slow of slowest) {
      const { rows: attempts } = await client.query<{
        attempt_number: number;
        started_at: Date;
        status_code: number | null;
        error: string | null;
      }>(
        `SELECT attempt_number, started_at, status_code, error FROM callback_attempts WHERE callback_id = $1 ORDER BY attempt_number`,
        [slow.callbackId],
      );
      const decidedAt = Date.parse(slow.decidedAt);
      slow.attempts = attempts.map(
        (a) =>
          `#${a.attempt_number} at ${((a.started_at.getTime() - decidedAt) / 1000).toFixed(1)} s: ${a.status_code ?? a.error ?? "no answer recorded"}`,
      );
    }
    const interrupted = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM callback_attempts a JOIN callbacks c ON c.id = a.callback_id
        WHERE c.partner_id = ANY($1) AND a.status_code IS NULL AND (a.error IS NULL OR a.error LIKE 'interrupted%')`,
      [partnerIds],
    );
    const ok2xx = input.deliveries.filter((d) => d.status >= 200 && d.status < 300).length;
    return {
      checks: [stored.done(), phantoms.done(), decisions.done(), callbacks.done(), settled.done()],
      numbers: {
        transfersSent: sent.size,
        transfersAcked: acked,
        transfersStored: storedCount,
        storedNotAcked,
        decisionsAcked: counts.acked,
        decisionsConfirmedAfterRetry: counts.confirmed,
        decisionsLostRace: counts.lostRace,
        decisionsUnresolved: counts.unresolved,
        decisionsInDb: decisionRows.length,
        callbacksInDb: callbackRows.length,
        callbacksDelivered: delivered,
        callbacksDeliveredInDb: deliveredInDb,
        receiverRequests: input.deliveries.length,
        receiverRequests2xx: ok2xx,
        duplicateDeliveries: duplicates,
        webhookIdsWithDuplicates: withDuplicates,
        missingCallbacks: missing,
        maxDeliveryLagMs: lags.length ? Math.max(...lags) : 0,
        p50DeliveryLagMs: lags.length ? percentile(lags, 50) : 0,
        p99DeliveryLagMs: lags.length ? percentile(lags, 99) : 0,
        slowestDeliveries: slowest,
        interruptedAttempts: interrupted.rows[0]?.n ?? 0,
      },
    };
  } finally {
    await client.end();
  }
}

/** Callback ids of every decision of the soak's partners, and which of them the database calls DELIVERED. */
export async function callbackProgress(
  databaseUrl: string,
  partnerIds: string[],
): Promise<{ ids: string[]; deliveredInDb: number; decisions: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; status: string }>(
      `SELECT id, status::text AS status FROM callbacks WHERE partner_id = ANY($1)`,
      [partnerIds],
    );
    const decided = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transfer_decisions d JOIN transfers t ON t.id = d.transfer_id WHERE t.partner_id = ANY($1)`,
      [partnerIds],
    );
    return {
      ids: rows.map((r) => r.id),
      deliveredInDb: rows.filter((r) => r.status === "DELIVERED").length,
      decisions: decided.rows[0]?.n ?? 0,
    };
  } finally {
    await client.end();
  }
}
