// Check 4 after a soak: every decision's callback reached the receiver with a 2xx, signed with the partner's
// secret and saying the decision, is DELIVERED in the database, and nothing else was sent; with the delivery
// lags and the database's account of the slowest ones.
import type pg from "pg";
import { verifyWebhook } from "@/lib/callbacks/verify-webhook";
import { CheckBuilder, sameJson } from "./check-builder";
import type { CheckNumbers } from "./checks";
import type { DecisionRow } from "./check-decisions";
import type { DecisionTarget } from "./pharmacists";
import type { Delivery } from "./receiver";
import type { SentTransfer, SoakPartner } from "./senders";

type CallbackRow = { id: string; transfer_id: string; partner_id: string; status: string };

export async function checkCallbacks(o: {
  client: pg.Client;
  partnerIds: string[];
  partnerById: Map<string, SoakPartner>;
  sent: Map<string, SentTransfer>;
  targets: Map<string, DecisionTarget>;
  deliveries: readonly Delivery[];
  decisionByTransfer: Map<string, DecisionRow[]>;
  transferKeyById: Map<string, string>;
}) {
  const { client, partnerIds, partnerById, sent, targets, deliveries, decisionByTransfer, transferKeyById } = o;
  const callbacks = new CheckBuilder("every decision's callback was delivered (2xx), signed, and says the decision");
  const { rows: callbackRows } = await client.query<CallbackRow>(
    `SELECT id, transfer_id, partner_id, status::text AS status FROM callbacks WHERE partner_id = ANY($1)`,
    [partnerIds],
  );
  const callbacksByTransfer = new Map<string, CallbackRow[]>();
  for (const c of callbackRows)
    callbacksByTransfer.set(c.transfer_id, [...(callbacksByTransfer.get(c.transfer_id) ?? []), c]);
  const deliveriesById = new Map<string, Delivery[]>();
  for (const d of deliveries) deliveriesById.set(d.webhookId, [...(deliveriesById.get(d.webhookId) ?? []), d]);

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
  return {
    checks: [callbacks.done(), settled.done()],
    callbackRows,
    delivered,
    deliveredInDb,
    duplicates,
    withDuplicates,
    missing,
    lags,
    slowest,
    interruptedAttempts: interrupted.rows[0]?.n ?? 0,
  };
}
