// After the soak: what the clients were told, what the database holds and what the receiver got, held
// against each other. Nothing here trusts the service's own bookkeeping alone: the stored request is
// compared with what was sent, decisions with what the pharmacists asked for, callbacks with what the
// receiver answered 2xx to, and signatures are checked with each partner's secret.
// This module runs them in order (check-transfers.ts, check-decisions.ts, check-callbacks.ts) and adds the
// checks of the run itself (loadChecks).
import pg from "pg";
import { percentile } from "../support";
import { plainCheck, type Check } from "./check-builder";
import { checkCallbacks } from "./check-callbacks";
import { checkDecisions } from "./check-decisions";
import { checkTransfers } from "./check-transfers";
import type { DecisionStats, DecisionTarget } from "./pharmacists";
import type { Delivery } from "./receiver";
import type { IntakeStats, SentTransfer, SoakPartner } from "./senders";

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
    const transfers = await checkTransfers(client, partnerIds, sent);
    const decided = await checkDecisions(client, partnerIds, targets, transfers.statusById);
    const delivery = await checkCallbacks({
      client,
      partnerIds,
      partnerById,
      sent,
      targets,
      deliveries: input.deliveries,
      decisionByTransfer: decided.decisionByTransfer,
      transferKeyById: transfers.transferKeyById,
    });
    const { counts } = decided;
    const lags = delivery.lags;
    const ok2xx = input.deliveries.filter((d) => d.status >= 200 && d.status < 300).length;
    return {
      checks: [...transfers.checks, decided.check, ...delivery.checks],
      numbers: {
        transfersSent: sent.size,
        transfersAcked: transfers.acked,
        transfersStored: transfers.storedCount,
        storedNotAcked: transfers.storedNotAcked,
        decisionsAcked: counts.acked,
        decisionsConfirmedAfterRetry: counts.confirmed,
        decisionsLostRace: counts.lostRace,
        decisionsUnresolved: counts.unresolved,
        decisionsInDb: decided.decisionRows.length,
        callbacksInDb: delivery.callbackRows.length,
        callbacksDelivered: delivery.delivered,
        callbacksDeliveredInDb: delivery.deliveredInDb,
        receiverRequests: input.deliveries.length,
        receiverRequests2xx: ok2xx,
        duplicateDeliveries: delivery.duplicates,
        webhookIdsWithDuplicates: delivery.withDuplicates,
        missingCallbacks: delivery.missing,
        maxDeliveryLagMs: lags.length ? Math.max(...lags) : 0,
        p50DeliveryLagMs: lags.length ? percentile(lags, 50) : 0,
        p99DeliveryLagMs: lags.length ? percentile(lags, 99) : 0,
        slowestDeliveries: delivery.slowest,
        interruptedAttempts: delivery.interruptedAttempts,
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
