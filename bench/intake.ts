// Intake throughput and latency: POST /v1/transfer on the production build against the node:http
// baseline, both on core 0, the load generator on core 1, distinct valid transfers each stored,
// alternating rounds so both see the same machine.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { buildTransferRequest } from "@/lib/transfers/fixtures";
import { freePort } from "@/tests/support/server";
import { median, progress, ROOT, runJsonChild, startProcess, stopProcess, waitForHttp } from "./support";

export type LoadResult = { requestsPerSecond: number; total: number; non2xx: number; errors: number; timeouts: number; p50: number; p99: number };
export type IntakeResult = {
  connections: number;
  seconds: number;
  rounds: number;
  ours: { requestsPerSecond: number; p50: number; p99: number; runs: LoadResult[] };
  baseline: { requestsPerSecond: number; p50: number; p99: number; runs: LoadResult[] };
  ratio: number;
};

/** A valid request as JSON text with two placeholders, so every request can be made distinct cheaply. */
export function requestTemplate(receivingNpi: string): string {
  const request = buildTransferRequest({}, { receivingNpi });
  request.metadata.requestID = "__REQUEST_ID__";
  request.prescription.rxNumber = "__RX__";
  return JSON.stringify(request);
}

function summarize(runs: LoadResult[]) {
  return {
    requestsPerSecond: Math.round(median(runs.map((r) => r.requestsPerSecond))),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    runs,
  };
}

export async function benchIntake(opts: {
  databaseUrl: string;
  authSecret: string;
  apiKey: string;
  pharmacyNpi: string;
  connections: number;
  seconds: number;
  rounds: number;
}): Promise<IntakeResult> {
  const oursPort = await freePort();
  const basePort = await freePort();
  const ours = startProcess(0, process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(oursPort)], {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: opts.databaseUrl,
    AUTH_SECRET: opts.authSecret,
    PHARMACY_NPI: opts.pharmacyNpi,
    V1_RATE_LIMIT_PER_MINUTE: "1000000000",
  });
  const baseline = startProcess(0, process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "bench/baseline-server.ts", String(basePort), opts.databaseUrl, opts.pharmacyNpi], {});
  try {
    await waitForHttp(`http://127.0.0.1:${oursPort}/v1/openapi.json`, ours);
    await waitForHttp(`http://127.0.0.1:${basePort}/`, baseline);
    const template = requestTemplate(opts.pharmacyNpi);
    const run = async (name: "ours" | "baseline", port: number, seconds: number, label: string) => {
      const done = progress(label, seconds);
      try {
        return await runJsonChild<LoadResult>(1, "bench/load-child.ts", {
          url: `http://127.0.0.1:${port}`,
          apiKey: opts.apiKey,
          template,
          connections: opts.connections,
          seconds,
          prefix: `${name}-${randomBytes(4).toString("hex")}`,
        });
      } finally {
        done();
      }
    };
    // Warm-up: JIT, pools and Next's lazily compiled route.
    await run("baseline", basePort, 2, "intake warm-up baseline");
    await run("ours", oursPort, 2, "intake warm-up ours");
    const oursRuns: LoadResult[] = [];
    const baseRuns: LoadResult[] = [];
    for (let round = 1; round <= opts.rounds; round++) {
      baseRuns.push(await run("baseline", basePort, opts.seconds, `intake baseline round ${round}/${opts.rounds}`));
      oursRuns.push(await run("ours", oursPort, opts.seconds, `intake ours round ${round}/${opts.rounds}`));
    }
    for (const r of [...oursRuns, ...baseRuns]) {
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`intake run had failures: ${JSON.stringify(r)}`);
    }
    const o = summarize(oursRuns);
    const b = summarize(baseRuns);
    return {
      connections: opts.connections,
      seconds: opts.seconds,
      rounds: opts.rounds,
      ours: o,
      baseline: b,
      ratio: Math.round((o.requestsPerSecond / b.requestsPerSecond) * 100) / 100,
    };
  } finally {
    await stopProcess(ours);
    await stopProcess(baseline);
  }
}
