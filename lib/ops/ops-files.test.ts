// The shipped alert rules and dashboard: promtool accepts the rules (when installed: .ci/run installs
// Debian's prometheus), and every metric they name is one this service exposes.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { metrics } from "@/lib/ops/metrics";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ALERTS = path.join(ROOT, "deploy/prometheus/alerts.yml");
const ALERT_TESTS = path.join(ROOT, "deploy/prometheus/alerts.test.yml");
const DASHBOARD = path.join(ROOT, "deploy/grafana/rx-transfer.json");
const hasPromtool = spawnSync("promtool", ["--version"]).status === 0;

/** Every rx_… name in a text, histogram suffixes folded onto their metric. */
function namedMetrics(text: string): Set<string> {
  return new Set([...text.matchAll(/\brx_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, "")));
}

/** Registered names, without collecting (which would ask the database). */
async function exposedMetrics(): Promise<Set<string>> {
  return new Set(
    metrics()
      .registry.getMetricsAsArray()
      .map((m) => (m as unknown as { name: string }).name),
  );
}

describe("deploy/prometheus/alerts.yml", () => {
  it.skipIf(!hasPromtool)("passes promtool check rules", () => {
    const result = spawnSync("promtool", ["check", "rules", ALERTS], { encoding: "utf8" });
    expect(result.stdout + result.stderr).toContain("SUCCESS: 9 rules found");
    expect(result.status).toBe(0);
  });

  it.skipIf(!hasPromtool)("fires as alerts.test.yml expects (promtool test rules)", () => {
    const result = spawnSync("promtool", ["test", "rules", ALERT_TESTS], { encoding: "utf8" });
    expect(result.stdout + result.stderr).toContain("SUCCESS");
    expect(result.status).toBe(0);
  });

  it("has the rules of the issues, each with a severity and a summary", () => {
    const text = readFileSync(ALERTS, "utf8");
    const alerts = [...text.matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    expect(alerts).toEqual([
      "RxTransferPending3h",
      "RxTransferPendingOver4h",
      "RxPartnerCallbacksFailing",
      "RxCallbackFailedOrGone",
      "RxInstanceNotReady",
      "RxIntake5xxAbove1Percent",
      "RxCallbackRefusedBySender",
      "RxPartnerFailureRateWarning",
      "RxPartnerFailureRateCritical",
    ]);
    expect(text.match(/severity: (warning|critical)/g)).toHaveLength(9);
    expect(text.match(/summary: /g)).toHaveLength(9);
  });

  it("names only metrics the service exposes", async () => {
    const exposed = await exposedMetrics();
    for (const name of namedMetrics(readFileSync(ALERTS, "utf8"))) expect(exposed, name).toContain(name);
  });
});

describe("deploy/grafana/rx-transfer.json", () => {
  it("is a dashboard whose every query names exposed metrics", async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8")) as {
      uid: string;
      panels: { targets: { expr: string }[] }[];
    };
    expect(dashboard.uid).toBe("rx-transfer");
    const exposed = await exposedMetrics();
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join("\n");
    for (const name of namedMetrics(exprs)) expect(exposed, name).toContain(name);
  });
});
