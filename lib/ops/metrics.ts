// Prometheus metrics (prom-client): counters and histograms observed where the work happens (the /v1 edge,
// the callback worker, decisions), and gauges read from PostgreSQL (pending transfers by age, callbacks by
// status, job-queue lag, sign-in failures) at most once per GAUGE_TTL_MS per instance, whatever the
// scrape rate: a scrape costs at most one round of small indexed queries every 15 s.
//
// Labels never carry patient data or unbounded ids: routes are fixed templates, partner ids are bounded
// by the partners table, never names nor referenceIDs.
//
// The registry lives on globalThis: under `npm start` the launcher and Next's bundle each load this module,
// in one process, and must count into the same metrics.
import client from "prom-client";
import { checkReadiness, type Readiness } from "@/lib/ops/readiness";
import { readDatabaseGauges, type DatabaseGauges } from "@/lib/ops/database-gauges";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";

export const GAUGE_TTL_MS = 15_000;
/** Pending-transfer age buckets against the sender's 4-hour window. */
export const PENDING_AGE_BUCKETS = ["0-1h", "1-2h", "2-3h", "3-4h", "over-4h"] as const;
export const CALLBACK_ATTEMPT_RESULTS = [
  "2xx",
  "3xx",
  "4xx",
  "5xx",
  "sender_refused",
  "timeout",
  "refused",
  "blocked",
  "interrupted",
  "error",
] as const;
export type CallbackAttemptResult = (typeof CALLBACK_ATTEMPT_RESULTS)[number];

type PoolStats = { total: number; idle: number; waiting: number };

type DefaultMetrics = (registry: client.Registry) => void;
/** prom-client's default metrics, all of them (prefix rx_); the standalone worker registers fewer. */
let registerDefaults: DefaultMetrics = (registry) =>
  client.collectDefaultMetrics({ register: registry, prefix: "rx_" });

/**
 * Another set of default metrics for this process, set before anything observes a metric: the standalone
 * callback worker's (scripts/worker.ts, lib/ops/worker-default-metrics.ts, kept out of Next's bundle).
 */
export function setDefaultMetrics(register: DefaultMetrics): void {
  registerDefaults = register;
}

function createMetrics() {
  const registry = new client.Registry();
  registerDefaults(registry);
  let cache: { at: number; value: Promise<DatabaseGauges | null> } | null = null;
  /** The database gauges, fetched at most once per GAUGE_TTL_MS (concurrent scrapes share one fetch). */
  const gauges = (): Promise<DatabaseGauges | null> => {
    const now = Date.now();
    if (!cache || now - cache.at >= GAUGE_TTL_MS) {
      cache = {
        at: now,
        value: readDatabaseGauges().catch((err: unknown) => {
          log("warn", "metrics: database gauges unavailable", errorFields(err));
          return null;
        }),
      };
    }
    return cache.value;
  };
  let poolStats: () => PoolStats | null = () => null;
  // One readiness run per scrape, shared by the two gauges that show it.
  let ready: { at: number; value: Promise<Readiness> } | null = null;
  const readiness = (): Promise<Readiness> => {
    if (!ready || Date.now() - ready.at > 1_000) ready = { at: Date.now(), value: checkReadiness() };
    return ready.value;
  };

  const m = {
    registry,
    setPoolStats(read: () => PoolStats | null) {
      poolStats = read;
    },
    v1Requests: new client.Counter({
      name: "rx_v1_requests_total",
      help: "Requests to /v1 by route template, HTTP status and TransferResponse error type (none for success).",
      labelNames: ["route", "status", "error_type"] as const,
      registers: [registry],
    }),
    v1Duration: new client.Histogram({
      name: "rx_v1_request_duration_seconds",
      help: "Time to answer a /v1 request, by route template.",
      labelNames: ["route"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    transfersReceived: new client.Counter({
      name: "rx_transfers_received_total",
      help: "POST /v1/transfer answers by outcome: created (stored), replayed (same requestID and content), duplicate.",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    decisions: new client.Counter({
      name: "rx_decisions_total",
      help: "Transfers decided by a pharmacist on this instance, by outcome.",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    callbackAttempts: new client.Counter({
      name: "rx_callback_attempts_total",
      help: "Callback attempts made by this instance's worker, by result (HTTP class, sender_refused: the sender's callback API answered RX_CALLBACK_ERROR, timeout, refused connection, blocked by the network guard, interrupted, error).",
      labelNames: ["result"] as const,
      registers: [registry],
    }),
    callbackLatency: new client.Histogram({
      name: "rx_callback_attempt_duration_seconds",
      help: "Duration of one callback attempt (DNS, connect, answer).",
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers: [registry],
    }),
    callbackBatchSize: new client.Histogram({
      name: "rx_callback_batch_size",
      help: "Callbacks claimed by one claim of this worker: the jobs it started together and their partners' due callbacks (at most CALLBACK_BATCH_SIZE per job).",
      buckets: [1, 2, 4, 8, 16, 32, 64, 128],
      registers: [registry],
    }),
    decisionToCallback: new client.Histogram({
      name: "rx_decision_to_callback_seconds",
      help: "From a decision (its callback's creation) to the callback's delivery (first 2xx).",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 5, 30, 60, 300, 900, 1800, 3600, 7200, 14400],
      registers: [registry],
    }),
  };

  const dbGauge = (
    name: string,
    help: string,
    labelNames: readonly string[],
    fill: (g: client.Gauge<string>, d: DatabaseGauges) => void,
  ) =>
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const d = await gauges();
        this.reset();
        if (d) fill(this, d);
      },
    });
  dbGauge(
    "rx_transfers_pending",
    "Transfers awaiting a decision, by age against the sender's 4-hour window.",
    ["age"],
    (g, d) => {
      for (const bucket of PENDING_AGE_BUCKETS) g.set({ age: bucket }, d.pendingByAge[bucket]);
    },
  );
  dbGauge(
    "rx_transfers_pending_oldest_age_seconds",
    "Age of the oldest transfer awaiting a decision (0 when none).",
    [],
    (g, d) => g.set(d.oldestPendingAgeSeconds),
  );
  dbGauge(
    "rx_callbacks",
    "Callbacks not delivered, by status (PENDING, FAILED, GONE, REFUSED: the sender answered RX_CALLBACK_ERROR), all instances.",
    ["status"],
    (g, d) => {
      for (const [status, n] of Object.entries(d.callbacksByStatus)) g.set({ status }, n);
    },
  );
  dbGauge(
    "rx_partner_callbacks_failing_seconds",
    "How long a partner's callbacks have been failing (only partners whose callbacks are failing).",
    ["partner_id"],
    (g, d) => {
      for (const p of d.failingPartners) g.set({ partner_id: p.partnerId }, p.failingSeconds);
    },
  );
  dbGauge(
    "rx_partner_v1_failure_ratio_1h",
    "Share of a partner's /v1 answers over the last hour that the sender counts as failures (5xx, 408, 429, slower than its timeout), all instances; the sender cuts the partner off above 0.5.",
    ["partner_id"],
    (g, d) => {
      for (const [partnerId, r] of d.partnerAnswers)
        if (r.failureRate !== null) g.set({ partner_id: partnerId }, r.failureRate);
    },
  );
  dbGauge(
    "rx_partner_v1_answers_1h",
    "A partner's /v1 answers over the last hour, all instances: all, failure (as the sender counts them), client_error (other 4xx ERROR answers, not in the failure ratio).",
    ["partner_id", "kind"],
    (g, d) => {
      for (const [partnerId, r] of d.partnerAnswers) {
        g.set({ partner_id: partnerId, kind: "all" }, r.answers);
        g.set({ partner_id: partnerId, kind: "failure" }, r.failures);
        g.set({ partner_id: partnerId, kind: "client_error" }, r.clientErrors);
      }
    },
  );
  dbGauge(
    "rx_job_queue_lag_seconds",
    "How long the oldest runnable job has been waiting for a worker (0 when none).",
    [],
    (g, d) => g.set(d.jobQueueLagSeconds),
  );
  dbGauge("rx_signin_failures_15m", "Failed sign-ins in the last 15 minutes, all instances.", [], (g, d) =>
    g.set(d.signInFailures15m),
  );
  dbGauge("rx_signin_lockouts_15m", "Accounts locked out in the last 15 minutes, all instances.", [], (g, d) =>
    g.set(d.lockouts15m),
  );
  new client.Gauge({
    name: "rx_metrics_database_up",
    help: "1 when the last read of the database gauges succeeded, else 0.",
    registers: [registry],
    async collect() {
      this.set((await gauges()) ? 1 : 0);
    },
  });
  new client.Gauge({
    name: "rx_ready",
    help: "1 when this instance's readiness checks (GET /readyz) pass, else 0; rx_readiness_check names each.",
    registers: [registry],
    async collect() {
      this.set((await readiness()).ready ? 1 : 0);
    },
  });
  new client.Gauge({
    name: "rx_readiness_check",
    help: "Each readiness check of this instance: 1 passing, 0 failing (shutdown, database, migrations, worker).",
    labelNames: ["check"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const c of (await readiness()).checks) this.set({ check: c.name }, c.ok ? 1 : 0);
    },
  });
  new client.Gauge({
    name: "rx_db_pool_connections",
    help: "The web process's database pool: connections in use, idle, and requests waiting for one.",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const s = poolStats();
      this.reset();
      if (!s) return;
      this.set({ state: "in_use" }, s.total - s.idle);
      this.set({ state: "idle" }, s.idle);
      this.set({ state: "waiting" }, s.waiting);
    },
  });
  return m;
}

type Metrics = ReturnType<typeof createMetrics>;
const KEY = Symbol.for("rx-transfer.ops.metrics");
const store = globalThis as unknown as { [KEY]?: Metrics };

export function metrics(): Metrics {
  store[KEY] ??= createMetrics();
  return store[KEY];
}

/** METRICS_ENABLED=false turns every observation into a no-op (the benchmark's "off" side). */
const enabled = (): boolean => env().METRICS_ENABLED;

/** One /v1 answer: counted, timed, and for POST /v1/transfer its intake outcome. */
export function observeV1Request(
  route: string,
  status: number,
  errorType: string | undefined,
  seconds: number,
  replayed: boolean,
): void {
  if (!enabled()) return;
  const m = metrics();
  m.v1Requests.inc({ route, status: String(status), error_type: errorType ?? "none" });
  m.v1Duration.observe({ route }, seconds);
  if (route !== "POST /v1/transfer") return;
  if (status === 200) m.transfersReceived.inc({ outcome: replayed ? "replayed" : "created" });
  else if (errorType === "DUPLICATE_REQUEST") m.transfersReceived.inc({ outcome: "duplicate" });
}

export function observeDecision(outcome: "approved" | "rejected"): void {
  if (enabled()) metrics().decisions.inc({ outcome });
}

/** Sorts an attempt's answer or error text (lib/callbacks/post-callback.ts) into a bounded result. */
export function classifyAttempt(statusCode: number | null, error: string | null): CallbackAttemptResult {
  // A status line followed by a body that never ended is a timeout, not an answer.
  if (error?.startsWith("timeout")) return "timeout";
  if (statusCode !== null) {
    const cls = Math.floor(statusCode / 100);
    return cls === 2 ? "2xx" : cls === 3 ? "3xx" : cls === 4 ? "4xx" : cls === 5 ? "5xx" : "error";
  }
  const e = error ?? "";
  if (e.startsWith("timeout") || e === "connection timed out") return "timeout";
  if (e === "connection refused") return "refused";
  if (e.startsWith("callback address refused")) return "blocked";
  if (e.startsWith("interrupted")) return "interrupted";
  return "error";
}

export function observeCallbackBatch(claimed: number): void {
  if (enabled()) metrics().callbackBatchSize.observe(claimed);
}

export function observeCallbackAttempt(input: {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  delivered: boolean;
  /** The sender's callback API answered RX_CALLBACK_ERROR. */
  refused: boolean;
  decidedAt: Date;
}): void {
  if (!enabled()) return;
  const m = metrics();
  m.callbackAttempts.inc({ result: input.refused ? "sender_refused" : classifyAttempt(input.statusCode, input.error) });
  m.callbackLatency.observe(input.latencyMs / 1000);
  if (input.delivered) m.decisionToCallback.observe(Math.max(0, (Date.now() - input.decidedAt.getTime()) / 1000));
}
