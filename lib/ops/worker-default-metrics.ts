// The standalone callback worker's default metrics: prom-client's (process CPU and memory, heap, event
// loop, handles, version; prefix rx_) without the GC duration histogram. Only scripts/worker.ts loads this
// file (Next's bundle never does); the web servers keep every default metric.
//
// Why: that histogram is fed by a PerformanceObserver called on every garbage collection, and the worker
// allocates fast (many small requests and rows): the observer alone is a visible share of the worker's CPU in its
// profile (bench/HISTORY.md). Nothing in deploy/ (alerts, dashboards) reads it. prom-client has no
// switch for one default metric, so the others are registered one by one from its own modules, named by
// its public `collectDefaultMetrics.metricsList` (worker-default-metrics.test.ts checks the result).
import { createRequire } from "node:module";
import path from "node:path";
import client from "prom-client";

type Collector = (registry: client.Registry, config: { prefix: string; eventLoopMonitoringPrecision: number }) => void;

const require = createRequire(import.meta.url);

export function registerWorkerDefaultMetrics(registry: client.Registry): void {
  const root = path.dirname(require.resolve("prom-client"));
  for (const name of client.collectDefaultMetrics.metricsList) {
    if (name === "gc") continue;
    const collector = require(path.join(root, "lib", "metrics", name)) as Collector;
    collector(registry, { prefix: "rx_", eventLoopMonitoringPrecision: 10 });
  }
}
