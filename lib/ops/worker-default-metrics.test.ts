import client from "prom-client";
import { describe, expect, it } from "vitest";
import { registerWorkerDefaultMetrics } from "@/lib/ops/worker-default-metrics";

const names = async (registry: client.Registry) => (await registry.getMetricsAsJSON()).map((m) => m.name).sort();

describe("the worker's default metrics", () => {
  it("are prom-client's defaults less the GC histogram, under the same names", async () => {
    const all = new client.Registry();
    client.collectDefaultMetrics({ register: all, prefix: "rx_" });
    const worker = new client.Registry();
    registerWorkerDefaultMetrics(worker);
    const expected = (await names(all)).filter((n) => n !== "rx_nodejs_gc_duration_seconds");
    expect(await names(worker)).toEqual(expected);
    expect(expected).toEqual(
      expect.arrayContaining(["rx_process_cpu_seconds_total", "rx_process_resident_memory_bytes"]),
    );
  });
});
