// What the launchers (scripts/serve.ts, scripts/worker.ts) add for operations: the METRICS_PORT listener
// on 127.0.0.1, the database pool's counts for /metrics, and the shutdown drain that /readyz announces.
import type { Server } from "node:http";
import { dbPoolStats } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { markShuttingDown } from "@/lib/ops/lifecycle";
import { metrics } from "@/lib/ops/metrics";
import { startMetricsListener } from "@/lib/ops/metrics-api";

export type OpsListeners = { drain(): Promise<void>; close(): Promise<void> };

export async function startOpsListeners(say: (msg: string) => void): Promise<OpsListeners> {
  metrics().setPoolStats(dbPoolStats);
  const port = env().METRICS_PORT;
  let server: Server | null = null;
  if (port) {
    server = await startMetricsListener(port);
    say(`metrics on http://127.0.0.1:${port}/metrics`);
  }
  return {
    drain: async () => {
      markShuttingDown();
      const ms = env().SHUTDOWN_DRAIN_SECONDS * 1000;
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!server) return resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
