// Intake throughput, latency and server CPU per request: POST /v1/transfer on the production server
// (`npm start`) against the node:http baseline, both on core 0, the load generator on core 1, distinct
// valid transfers each stored, alternating rounds so both see the same machine.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { buildTransferRequest } from "@/lib/transfers/fixtures";
import { freePort } from "@/tests/support/server";
import { median, processTreeCpuMs, progress, ROOT, runJsonChild, startProcess, stopProcess, waitForHttp } from "./support";

export type LoadResult = { requestsPerSecond: number; total: number; non2xx: number; errors: number; timeouts: number; p50: number; p99: number };
/** A load run plus the server's CPU time per request (its whole process tree), which moves less with machine noise than req/s. */
export type ServerRun = LoadResult & { cpuMsPerRequest: number };
export type IntakeResult = {
  connections: number;
  seconds: number;
  rounds: number;
  ours: { requestsPerSecond: number; p50: number; p99: number; cpuMsPerRequest: number; runs: ServerRun[] };
  baseline: { requestsPerSecond: number; p50: number; p99: number; cpuMsPerRequest: number; runs: ServerRun[] };
  ratio: number;
  /** Baseline CPU per request over ours: 1 would be as lean as the baseline. */
  cpuRatio: number;
};

/** A valid request as JSON text with two placeholders, so every request can be made distinct cheaply. */
export function requestTemplate(receivingNpi: string): string {
  const request = buildTransferRequest({}, { receivingNpi });
  request.metadata.requestID = "__REQUEST_ID__";
  request.prescription.rxNumber = "__RX__";
  return JSON.stringify(request);
}

function summarize(runs: ServerRun[]) {
  return {
    requestsPerSecond: Math.round(median(runs.map((r) => r.requestsPerSecond))),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuMsPerRequest: Math.round(median(runs.map((r) => r.cpuMsPerRequest)) * 1000) / 1000,
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
  // The product as `npm start` runs it (its callback worker included, idle here).
  const ours = startProcess(0, process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/serve.ts", "start"], {
    NODE_ENV: "production",
    PORT: String(oursPort),
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
    const run = async (name: "ours" | "baseline", port: number, seconds: number, label: string): Promise<ServerRun> => {
      const done = progress(label, seconds);
      const server = name === "ours" ? ours : baseline;
      const cpuBefore = processTreeCpuMs(server.pid!);
      try {
        const load = await runJsonChild<LoadResult>(1, "bench/load-child.ts", {
          url: `http://127.0.0.1:${port}`,
          apiKey: opts.apiKey,
          template,
          connections: opts.connections,
          seconds,
          prefix: `${name}-${randomBytes(4).toString("hex")}`,
        });
        const cpuMsPerRequest = (processTreeCpuMs(server.pid!) - cpuBefore) / Math.max(1, load.total);
        return { ...load, cpuMsPerRequest: Math.round(cpuMsPerRequest * 1000) / 1000 };
      } finally {
        done();
      }
    };
    // Warm-up: JIT, pools and Next's lazily compiled route.
    await run("baseline", basePort, 2, "intake warm-up baseline");
    await run("ours", oursPort, 2, "intake warm-up ours");
    const oursRuns: ServerRun[] = [];
    const baseRuns: ServerRun[] = [];
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
      cpuRatio: Math.round((b.cpuMsPerRequest / o.cpuMsPerRequest) * 100) / 100,
    };
  } finally {
    await stopProcess(ours);
    await stopProcess(baseline);
  }
}
