// A sender simulator: plays the sending platform as its guides describe (docs/senders/), for people
// integrating with this service and for our own tests. It POSTs transfers to a running service with a
// partner's API key (bare in Authorization, as the sender's published example does), retries 408, 429, 500,
// 502, 503, 504 and no answer up to 3 times about 3, 9 and 27 minutes later with metadata.retryCount 1-3 and
// the same requestID, runs the sender's callback API on 127.0.0.1 (callback-api.ts), and reports per
// transfer what the sender would believe once its 4-hour wait is over: CONFIRMED, ERROR, or missing (a
// RECEIVED transfer with no callback it processed). `timeScale` shrinks every wait (0.001: 3 min → 180 ms,
// 4 h → 14.4 s); network timeouts are not scaled.
import { startCallbackApi, type CallbackApi } from "@/lib/sender-sim/callback-api";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import type { TransferRequest } from "@/lib/interface";

export const SENDER_RETRY_DELAYS_MS = [3, 9, 27].map((minutes) => minutes * 60_000);
export const SENDER_RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** How long the sender waits for the callback of a RECEIVED transfer. */
export const SENDER_WAIT_MS = 4 * 60 * 60 * 1000;
const REQUEST_TIMEOUT_MS = 30_000;

export type SentAttempt = {
  retryCount: number;
  /** HTTP status, or null when no answer came (network error, timeout). */
  status: number | null;
  responseType: string | null;
  errorType: string | null;
  description: string | null;
};

export type Belief = "CONFIRMED" | "ERROR" | "missing";

export type TransferOutcome = {
  requestID: string;
  referenceID: string | null;
  attempts: SentAttempt[];
  /** The last answer's responseType (null: no answer after every retry). */
  immediate: string | null;
  /** The callbacks received for this requestID, in order, and how the callback API answered each. */
  callbacks: { responseType: string; answered: string }[];
  belief: Belief;
  /** Callbacks of this requestID processed again after the first (each one a duplicate). */
  duplicateCallbacks: number;
};

export type SenderReport = {
  transfers: TransferOutcome[];
  totals: {
    transfers: number;
    confirmed: number;
    error: number;
    missing: number;
    refusedCallbacks: number;
    duplicateCallbacks: number;
  };
};

export type SenderSimulationOptions = {
  baseUrl: string;
  apiKey: string;
  /** Multiplies every wait of the sender (retries, the 4-hour window). */
  timeScale: number;
  /** Share (0..1) of callbacks answered RX_CALLBACK_ERROR. */
  refuseShare: number;
  /** Port of the callback API on 127.0.0.1 (default: any free port). */
  callbackPort?: number;
};

export type SenderSimulation = {
  callbackApi: CallbackApi;
  /** Sends one transfer and retries it as the sender does; resolves with its answers so far. */
  send(request: TransferRequest): Promise<TransferOutcome>;
  /**
   * What the sender believes: waits for the callbacks of the RECEIVED transfers until each has one the
   * callback API processed, or until the scaled 4-hour window after the transfer was sent has passed.
   */
  report(): Promise<SenderReport>;
  close(): Promise<void>;
};

type Tracked = { outcome: TransferOutcome; sentAt: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startSenderSimulation(opts: SenderSimulationOptions): Promise<SenderSimulation> {
  const callbackApi = await startCallbackApi({ port: opts.callbackPort, refuseShare: opts.refuseShare });
  const tracked = new Map<string, Tracked>();
  const base = opts.baseUrl.replace(/\/+$/, "");

  const post = async (request: TransferRequest, retryCount: number): Promise<SentAttempt> => {
    const body = retryCount === 0 ? request : { ...request, metadata: { ...request.metadata, retryCount } };
    try {
      const res = await fetch(`${base}/v1/transfer`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: opts.apiKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const answer = (await res.json().catch(() => null)) as {
        metadata?: { responseType?: string; referenceID?: string };
        error?: { type?: string; description?: string };
      } | null;
      return {
        retryCount,
        status: res.status,
        responseType: answer?.metadata?.responseType ?? null,
        errorType: answer?.error?.type ?? null,
        description: answer?.error?.description ?? null,
        ...(answer?.metadata?.referenceID ? { referenceID: answer.metadata.referenceID } : {}),
      };
    } catch (err) {
      return {
        retryCount,
        status: null,
        responseType: null,
        errorType: null,
        description: err instanceof Error ? err.message : String(err),
      };
    }
  };

  const send = async (request: TransferRequest): Promise<TransferOutcome> => {
    const outcome: TransferOutcome = {
      requestID: request.metadata.requestID,
      referenceID: null,
      attempts: [],
      immediate: null,
      callbacks: [],
      belief: "missing",
      duplicateCallbacks: 0,
    };
    tracked.set(outcome.requestID, { outcome, sentAt: Date.now() });
    for (let retryCount = 0; retryCount <= SENDER_RETRY_DELAYS_MS.length; retryCount++) {
      if (retryCount > 0) await sleep(SENDER_RETRY_DELAYS_MS[retryCount - 1]! * opts.timeScale);
      const attempt = await post(request, retryCount);
      const { referenceID, ...recorded } = attempt as SentAttempt & { referenceID?: string };
      outcome.attempts.push(recorded);
      if (attempt.status !== null && !SENDER_RETRYABLE_STATUSES.has(attempt.status)) {
        outcome.immediate = attempt.responseType;
        // An ERROR's referenceID names someone else's transfer (DUPLICATE_REQUEST) or nothing stored.
        if (attempt.responseType !== "ERROR") outcome.referenceID = referenceID ?? null;
        break;
      }
    }
    // The sender's window starts when it has its answer (its retries are its own delay).
    tracked.get(outcome.requestID)!.sentAt = Date.now();
    return outcome;
  };

  const processedCallbacks = (requestID: string) =>
    callbackApi.received.filter((c) => c.requestID === requestID && c.answered === "RX_CALLBACK_SUCCESS");

  const report = async (): Promise<SenderReport> => {
    const window = SENDER_WAIT_MS * opts.timeScale;
    const waiting = () =>
      [...tracked.values()].filter(
        (t) =>
          t.outcome.immediate === "RECEIVED" &&
          processedCallbacks(t.outcome.requestID).length === 0 &&
          Date.now() - t.sentAt < window,
      );
    while (waiting().length > 0) await sleep(Math.min(250, Math.max(10, window / 100)));
    const transfers = [...tracked.values()].map(({ outcome }) => {
      const callbacks = callbackApi.received.filter((c) => c.requestID === outcome.requestID);
      const processed = callbacks.filter((c) => c.answered === "RX_CALLBACK_SUCCESS");
      const belief: Belief =
        outcome.immediate === "CONFIRMED"
          ? "CONFIRMED"
          : outcome.immediate === "RECEIVED"
            ? processed[0]?.responseType === "CONFIRMED"
              ? "CONFIRMED"
              : processed[0]?.responseType === "ERROR"
                ? "ERROR"
                : "missing"
            : // An ERROR answer, or none after every retry: the sender knows the request failed.
              "ERROR";
      return {
        ...outcome,
        callbacks: callbacks.map((c) => ({ responseType: c.responseType, answered: c.answered })),
        belief,
        duplicateCallbacks: Math.max(0, processed.length - 1),
      };
    });
    const count = (b: Belief) => transfers.filter((t) => t.belief === b).length;
    return {
      transfers,
      totals: {
        transfers: transfers.length,
        confirmed: count("CONFIRMED"),
        error: count("ERROR"),
        missing: count("missing"),
        refusedCallbacks: callbackApi.received.filter((c) => c.answered === "RX_CALLBACK_ERROR").length,
        duplicateCallbacks: transfers.reduce((n, t) => n + t.duplicateCallbacks, 0),
      },
    };
  };

  return { callbackApi, send, report, close: () => callbackApi.close() };
}

export type SimulatedRequestOptions = { runId: string; receivingNpi?: string; sendingNpi?: string; now?: Date };

/** `count` valid transfer requests, each its own requestID and prescription (rxNumber) within the run. */
export function simulatedRequests(count: number, opts: SimulatedRequestOptions): TransferRequest[] {
  return Array.from({ length: count }, (_, i) =>
    buildTransferRequest(
      {
        metadata: { requestID: `sim_${opts.runId}_${i + 1}`, patientReferenceID: `simpat_${opts.runId}_${i + 1}` },
        prescription: { rxNumber: `SIM${opts.runId}${String(i + 1).padStart(4, "0")}` },
      },
      { receivingNpi: opts.receivingNpi, sendingNpi: opts.sendingNpi, now: opts.now },
    ),
  );
}

/** The report in lines a person reads. */
export function reportText(report: SenderReport): string {
  const lines = report.transfers.map((t) => {
    const answers = t.attempts.map((a) => `${a.status ?? "no answer"}${a.responseType ? ` ${a.responseType}` : ""}`);
    const callbacks = t.callbacks.map((c) => `${c.responseType}→${c.answered}`);
    return `${t.requestID}  ${t.belief.padEnd(9)}  answers: ${answers.join(", ")}${callbacks.length ? `  callbacks: ${callbacks.join(", ")}` : ""}${t.duplicateCallbacks ? `  duplicates: ${t.duplicateCallbacks}` : ""}`;
  });
  const s = report.totals;
  lines.push(
    `${s.transfers} transfers: ${s.confirmed} CONFIRMED, ${s.error} ERROR, ${s.missing} missing; ${s.refusedCallbacks} callbacks answered RX_CALLBACK_ERROR, ${s.duplicateCallbacks} duplicate callbacks`,
  );
  return lines.join("\n");
}
