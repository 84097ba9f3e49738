// The tables `npm run bench` prints after a run: each part's figures beside its baseline, with ratios.
import type { ApprovalsResult } from "./approvals";
import type { CallbacksResult } from "./callbacks";
import type { DashboardResult } from "./dashboard-result";
import type { IntakeResult } from "./intake";
import type { MetricsOverheadResult } from "./metrics-overhead";
import { printScale } from "./print-scale";
import type { QueueSize } from "./queue";
import type { ScaleResult } from "./scale";
import { table } from "./text-table";

/** Each part that ran, in the order the run reports them. */
export function printTables(r: {
  intake?: IntakeResult;
  metrics?: MetricsOverheadResult;
  queue?: QueueSize[];
  dashboard?: DashboardResult;
  approvals?: ApprovalsResult;
  callbacks?: CallbacksResult;
  scale?: ScaleResult;
}): void {
  if (r.intake) printIntake(r.intake);
  if (r.metrics) printMetrics(r.metrics);
  printQueue(r.queue ?? []);
  if (r.dashboard) printDashboard(r.dashboard);
  if (r.approvals) printApprovals(r.approvals);
  if (r.callbacks) printCallbacks(r.callbacks);
  if (r.scale?.queue) printQueue([r.scale.queue]);
  if (r.scale?.dashboard) printDashboard(r.scale.dashboard);
  if (r.scale) printScale(r.scale);
}

function printIntake(intake: IntakeResult): void {
  process.stdout.write(
    `\n${table([
      ["figure", "ours", "baseline", "ratio"],
      [
        "intake req/s",
        String(intake.ours.requestsPerSecond),
        String(intake.baseline.requestsPerSecond),
        String(intake.ratio),
      ],
      [
        "intake p50 ms",
        String(intake.ours.p50),
        String(intake.baseline.p50),
        (intake.ours.p50 / intake.baseline.p50).toFixed(2),
      ],
      [
        "intake p99 ms",
        String(intake.ours.p99),
        String(intake.baseline.p99),
        (intake.ours.p99 / intake.baseline.p99).toFixed(2),
      ],
      [
        "intake server CPU ms/request",
        String(intake.ours.cpuMsPerRequest),
        String(intake.baseline.cpuMsPerRequest),
        String(intake.cpuRatio),
      ],
      [
        "intake DB transactions/request",
        String(intake.ours.transactionsPerRequest),
        String(intake.baseline.transactionsPerRequest),
        "",
      ],
    ])}\n`,
  );
  const old = intake.before;
  if (old) {
    process.stdout.write(
      `before (${old.checkout}): ${old.requestsPerSecond} req/s (ratio ${old.ratio}), p50 ${old.p50} ms, p99 ${old.p99} ms, ${old.cpuMsPerRequest} ms CPU/request, ${old.transactionsPerRequest} DB transactions/request\n`,
    );
  }
  const half = intake.atHalfBaseline;
  process.stdout.write(
    `ours paced at half the baseline's throughput (${half.rate} req/s): p50 ${half.p50} ms, p99 ${half.p99} ms\n`,
  );
  const rh = intake.routeHandler;
  process.stdout.write(
    `(reference: the same endpoint through Next's route handler, \`next start\`: ${rh.requestsPerSecond} req/s, p50 ${rh.p50} ms, p99 ${rh.p99} ms, ${rh.cpuMsPerRequest} ms CPU/request)\n`,
  );
}

function printMetrics(metrics: MetricsOverheadResult): void {
  process.stdout.write(
    `\nmetrics overhead (${metrics.on.scrapes} scrapes): intake ${metrics.on.requestsPerSecond} req/s with metrics vs ${metrics.off.requestsPerSecond} without, ratio ${metrics.throughputRatio}; CPU ${metrics.on.cpuMsPerRequest} vs ${metrics.off.cpuMsPerRequest} ms/request, ratio ${metrics.cpuRatio}\n`,
  );
}

function printQueue(queue: QueueSize[]): void {
  for (const size of queue) {
    process.stdout.write(
      `\nqueue at ${size.transfers.toLocaleString()} transfers${size.databaseBytes ? ` (database ${(size.databaseBytes / 2 ** 30).toFixed(2)} GiB)` : ""} (ms; baseline: the bare keyset index read of the same page)\n`,
    );
    process.stdout.write(
      `${table([
        ["case", "p50", "p95", "baseline p50", "baseline p95", "ratio p50"],
        ...size.cases.map((c) => [
          c.name,
          String(c.p50),
          String(c.p95),
          String(c.baselineP50),
          String(c.baselineP95),
          String(c.ratio),
        ]),
      ])}\n`,
    );
    for (const c of size.cases) {
      const indexes = [
        ...new Set(
          c.plan.flatMap(
            (line) =>
              /(Index(?: Only)? Scan(?: Backward)? using \S+|Bitmap Index Scan on \S+|Seq Scan on \S+)/.exec(
                line,
              )?.[1] ?? [],
          ),
        ),
      ];
      process.stdout.write(`  plan of ${c.name}: ${indexes.join(", ") || "(no plan captured)"}\n`);
    }
  }
}

function printDashboard(dashboard: DashboardResult): void {
  const d = dashboard;
  process.stdout.write(
    `\ndashboard in Chromium against npm start, ${d.transfersInTable.toLocaleString()} transfers seeded (${d.samples} samples after ${d.warmUp} warm-up; ms)\n`,
  );
  process.stdout.write(
    `${table([
      ["step", "p50", "p95", "max", "API call alone p50 / p95", "ratio p50", "requests"],
      [
        "queue row click -> usable review",
        String(d.open.ours.p50),
        String(d.open.ours.p95),
        String(d.open.ours.max),
        `${d.open.baseline.p50} / ${d.open.baseline.p95}`,
        String(d.open.ratio),
        String(d.open.requestsPerStep),
      ],
      [
        "confirm approval -> approved",
        String(d.approve.ours.p50),
        String(d.approve.ours.p95),
        String(d.approve.ours.max),
        `${d.approve.baseline.p50} / ${d.approve.baseline.p95}`,
        String(d.approve.ratio),
        String(d.approve.requestsPerStep),
      ],
    ])}\n`,
  );
  if (d.documentServer) {
    const { review, queue, ratio } = d.documentServer;
    process.stdout.write(
      `document server time (responseStart - requestStart) p50 / p95 ms: review screen ${review.p50} / ${review.p95}, queue ${queue.p50} / ${queue.p95}; review / queue p50 ${ratio}x\n`,
    );
  }
  if (d.queueLayoutShift) {
    const { desktop, narrow, loads, watchMs } = d.queueLayoutShift;
    process.stdout.write(
      `queue CLS (${loads} loads each, ${watchMs / 1000} s watched) p50 / max: 1440 px ${desktop.p50} / ${desktop.max}, 320 px ${narrow.p50} / ${narrow.max}\n`,
    );
  }
  process.stdout.write(
    `(approval notice p50 / p95 ${d.approveNotice.p50} / ${d.approveNotice.p95} ms; ${d.overview ? `GET /api/overview p50 / p95 ${d.overview.p50} / ${d.overview.p95} ms; ` : ""}server CPU ${d.serverCpuMsPerSample} ms per sample; load average ${d.loadAverage.start.join(" ")} -> ${d.loadAverage.end.join(" ")}; ${d.seconds} s in all, ${d.serverStartSeconds} s of it starting npm start)\n`,
  );
}

function printApprovals(approvals: ApprovalsResult): void {
  process.stdout.write(
    `\napprovals at concurrency ${approvals.concurrency}, no worker (${approvals.rounds} alternating rounds of ${approvals.count}; median round)\n`,
  );
  process.stdout.write(
    `${table([
      ["figure", `${approvals.chains} audit chains`, "1 audit chain (before)", "ratio"],
      [
        "approvals/s",
        String(approvals.chained.approvalsPerSecond),
        String(approvals.single.approvalsPerSecond),
        String(approvals.ratio),
      ],
      [
        "approval p50 / p95 ms",
        `${approvals.chained.p50} / ${approvals.chained.p95}`,
        `${approvals.single.p50} / ${approvals.single.p95}`,
        "",
      ],
    ])}\n`,
  );
}

function printCallbacks(callbacks: CallbacksResult): void {
  const c = callbacks;
  process.stdout.write(
    `\ncallbacks (${c.count} deliveries at concurrency ${c.concurrency}, batch size ${c.batchSize}; baseline: the same signed POSTs sent directly)\n`,
  );
  process.stdout.write(
    `${table([
      ["figure", "ours", "baseline", "ratio"],
      [
        "callbacks/s (a backlog drained)",
        String(c.ours.callbacksPerSecond),
        String(c.baseline.callbacksPerSecond),
        String(c.ratio),
      ],
      [
        `… one job per callback (batch size 1)`,
        String(c.oneJobPerCallback.callbacksPerSecond),
        "",
        String(Math.round((c.oneJobPerCallback.callbacksPerSecond / c.baseline.callbacksPerSecond) * 100) / 100),
      ],
      [
        `… baseline with ${c.baselineAtBatchInFlight.concurrency} POSTs in flight`,
        "",
        String(c.baselineAtBatchInFlight.callbacksPerSecond),
        String(Math.round((c.ours.callbacksPerSecond / c.baselineAtBatchInFlight.callbacksPerSecond) * 100) / 100),
      ],
      [
        "worker CPU ms / callback (ours: batched; right: batch 1)",
        String(c.batched.workerCpuMsPerCallback),
        String(c.oneJobPerCallback.workerCpuMsPerCallback),
        "",
      ],
      [
        "write transactions / callback (batched; batch 1)",
        String(c.batched.writeTransactionsPerCallback),
        String(c.oneJobPerCallback.writeTransactionsPerCallback),
        "",
      ],
      ...Object.entries(c.variants).map(([label, v]) => [
        `drain: ${label} (/s, worker CPU ms and write transactions per callback)`,
        String(v.perSecond),
        `${v.workerCpuMsPerCallback} ms, ${v.writeTransactionsPerCallback} tx`,
        String(Math.round((v.perSecond / c.baseline.callbacksPerSecond) * 100) / 100),
      ]),
      ["approvals + callbacks/s (end to end)", String(c.ours.approveAndDeliverPerSecond), "", ""],
      ...Object.entries(c.variants).map(([label, v]) => [
        `approve + deliver: ${label} (/s; callbacks per claim)`,
        String(v.approveAndDeliverPerSecond),
        String(v.callbacksPerClaim ?? ""),
        "",
      ]),
      ["approve-to-callback p50 ms", String(c.ours.latencyP50), String(c.baseline.latencyP50), ""],
      ["approve-to-callback p99 ms", String(c.ours.latencyP99), String(c.baseline.latencyP99), ""],
    ])}\n`,
  );
}
