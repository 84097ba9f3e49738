// Sending pharmacies under the soak: a few concurrent clients POSTing distinct valid transfers to
// /v1/transfer with their API key, as a real sender does when our service crashes under it: an answer
// other than 200 (a refused or cut connection, a timeout, a 503) is "not acknowledged", and the same
// request goes again with the same requestID (retryCount and requestTimestamp updated, which the
// idempotency key ignores) until it gets its 200. Some transfers are also re-sent after their 200, or
// sent twice at once, to exercise the idempotency on purpose.
import { randomInt } from "node:crypto";
import { formatDateTime } from "@/lib/demo/sample-transfers";
import { randomTransferRequest } from "@/lib/demo/random-transfer-request";
import type { TransferRequest, TransferResponse } from "@/lib/interface";
import { requestDigest, timedFetch, sleep, type Outcome } from "./util";

export type SoakPartner = {
  index: number;
  name: string;
  partnerId: string;
  apiKey: string;
  webhookSecret: string;
  path: string;
};

export type SentTransfer = {
  partner: SoakPartner;
  requestID: string;
  /** The request as first built (retryCount 0): what the stored row must hold, volatile fields aside. */
  request: TransferRequest;
  /** Digest of the request without retryCount and requestTimestamp (see util.requestDigest). */
  digest: string;
  /** Every retryCount value sent for this requestID. */
  retryCounts: Set<number>;
  /** referenceIDs of every 200 answer (one expected). */
  referenceIDs: Set<string>;
  acked: boolean;
  ackedAt: number | null;
};

export type IntakeStats = {
  requests: number;
  ok200: number;
  replayed200: number;
  status503: number;
  connectionErrors: number;
  timeouts: number;
  status500: number;
  otherStatus: Record<string, number>;
  /** Re-sends of a transfer that had not been acknowledged yet. */
  retries: number;
  /** Deliberate re-sends of an acknowledged transfer. */
  deliberateReplays: number;
  /** Transfers sent as two identical requests at once. */
  concurrentPairs: number;
  /** Transfers given up on unacknowledged (the load ended before a 200). */
  abandoned: number;
  /**
   * Transfers whose first answer was lost (no answer: the server died) although the transfer had been
   * stored: the retry got the first answer replayed. Only counted for transfers sent one copy at a time.
   */
  lostAnswersReplayed: number;
  anomalies: string[];
};

export function newIntakeStats(): IntakeStats {
  return {
    requests: 0,
    ok200: 0,
    replayed200: 0,
    status503: 0,
    connectionErrors: 0,
    timeouts: 0,
    status500: 0,
    otherStatus: {},
    retries: 0,
    deliberateReplays: 0,
    concurrentPairs: 0,
    abandoned: 0,
    lostAnswersReplayed: 0,
    anomalies: [],
  };
}

const rng = () => randomInt(0, 2 ** 32) / 2 ** 32;

export type SenderControl = {
  baseUrl: string;
  /** True once no new transfer may be started. */
  stopNew: () => boolean;
  /** After this time (Date.now()), an unacknowledged transfer is given up. */
  giveUpAt: () => number;
  onAcked: (t: SentTransfer, referenceID: string) => void;
};

type AttemptResult = { outcome: Outcome; referenceID?: string; replayed?: boolean };

async function sendOnce(
  ctl: SenderControl,
  stats: IntakeStats,
  t: SentTransfer,
  retryCount: number,
): Promise<AttemptResult> {
  const body: TransferRequest = {
    ...t.request,
    metadata: { ...t.request.metadata, retryCount, requestTimestamp: formatDateTime(Date.now(), 0) },
  };
  t.retryCounts.add(retryCount);
  stats.requests++;
  const answer = await timedFetch(`${ctl.baseUrl}/v1/transfer`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `senderKey ${t.partner.apiKey}` },
    body: JSON.stringify(body),
  });
  if (answer.kind === "error") {
    if (answer.timeout) stats.timeouts++;
    else stats.connectionErrors++;
    return { outcome: "unacknowledged" };
  }
  const { status, text, headers } = answer;
  if (status === 200) {
    let parsed: TransferResponse;
    try {
      parsed = JSON.parse(text) as TransferResponse;
    } catch {
      stats.anomalies.push(`intake ${t.requestID}: 200 with a body that is not JSON`);
      return { outcome: "anomaly" };
    }
    stats.ok200++;
    const replayed = headers.get("idempotent-replayed") === "true";
    if (replayed) stats.replayed200++;
    const referenceID = parsed.metadata?.referenceID;
    if (parsed.requestID !== t.requestID || parsed.metadata?.responseType !== "RECEIVED" || !referenceID) {
      stats.anomalies.push(
        `intake ${t.requestID}: 200 that is not a RECEIVED answer for this request: ${text.slice(0, 200)}`,
      );
      return { outcome: "anomaly" };
    }
    t.referenceIDs.add(referenceID);
    return { outcome: "acknowledged", referenceID, replayed };
  }
  if (status === 503) {
    stats.status503++;
    return { outcome: "unacknowledged" };
  }
  if (status === 500) {
    stats.status500++;
    stats.anomalies.push(`intake ${t.requestID}: 500 ${text.slice(0, 300)}`);
    return { outcome: "unacknowledged" };
  }
  stats.otherStatus[String(status)] = (stats.otherStatus[String(status)] ?? 0) + 1;
  stats.anomalies.push(`intake ${t.requestID}: unexpected ${status} ${text.slice(0, 300)}`);
  return { outcome: "anomaly" };
}

/** Sends until a 200 (or an answer no retry can change, or the give-up time); copies share `counter`. */
async function sendUntilAcked(
  ctl: SenderControl,
  stats: IntakeStats,
  t: SentTransfer,
  counter: { n: number },
  alone: boolean,
): Promise<void> {
  for (let first = true; ; first = false) {
    const retryCount = counter.n++;
    if (!first) stats.retries++;
    const result = await sendOnce(ctl, stats, t, retryCount);
    if (result.outcome === "acknowledged") {
      if (!first && alone && result.replayed) stats.lostAnswersReplayed++;
      if (!t.acked) {
        t.acked = true;
        t.ackedAt = Date.now();
        ctl.onAcked(t, result.referenceID!);
      }
      return;
    }
    if (result.outcome === "anomaly" || t.acked) return;
    if (Date.now() > ctl.giveUpAt()) return;
    await sleep(150 + randomInt(0, 600));
  }
}

export async function runSender(opts: {
  ctl: SenderControl;
  stats: IntakeStats;
  partner: SoakPartner;
  client: number;
  runTag: string;
  sent: Map<string, SentTransfer>;
  thinkMs: number;
}): Promise<void> {
  const { ctl, stats, partner } = opts;
  let n = 0;
  while (!ctl.stopNew()) {
    n++;
    const request = randomTransferRequest(rng);
    request.metadata.requestID = `soak-${opts.runTag}-${partner.index}-${opts.client}-${n}`;
    const t: SentTransfer = {
      partner,
      requestID: request.metadata.requestID,
      request,
      digest: requestDigest(request),
      retryCounts: new Set(),
      referenceIDs: new Set(),
      acked: false,
      ackedAt: null,
    };
    opts.sent.set(`${partner.partnerId} ${t.requestID}`, t);
    const counter = { n: 0 };
    const dice = rng();
    if (dice < 0.03) {
      // Two identical requests at once: one transfer, the same referenceID in both answers.
      stats.concurrentPairs++;
      await Promise.all([sendUntilAcked(ctl, stats, t, counter, false), sendUntilAcked(ctl, stats, t, counter, false)]);
    } else {
      await sendUntilAcked(ctl, stats, t, counter, true);
    }
    if (!t.acked) {
      stats.abandoned++;
    } else if (dice > 0.94) {
      // The sender did not see our 200 (as far as it knows) and sends again: the first answer, replayed.
      stats.deliberateReplays++;
      await sendOnce(ctl, stats, t, counter.n++);
    }
    if (opts.thinkMs > 0) await sleep(randomInt(0, opts.thinkMs * 2));
  }
}
