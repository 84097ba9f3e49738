// What /metrics costs the intake: POST /v1/transfer on `npm start` with metrics recorded and scraped
// (METRICS_TOKEN set, a scraper asking for /metrics every second, 15x Prometheus' usual rate) against the same
// server with METRICS_ENABLED=false, in one run, alternating rounds on core 0 with the load on core 1.
// Reported as req/s and server CPU per request, each with the on/off ratio (the aim: under 3 % slower).
import { randomBytes } from "node:crypto";
import { freePort, TEST_SECRETS } from "@/tests/support/server";
import { requestTemplate, type LoadResult, type ServerRun } from "./intake";
import {
  median,
  processTreeCpuMs,
  progress,
  runJsonChild,
  SERVER_NODE_FLAGS,
  startProcess,
  stopProcess,
  waitForHttp,
} from "./support";

export type MetricsOverheadResult = {
  connections: number;
  seconds: number;
  rounds: number;
  on: { requestsPerSecond: number; cpuMsPerRequest: number; p99: number; scrapes: number; runs: ServerRun[] };
  off: { requestsPerSecond: number; cpuMsPerRequest: number; p99: number; runs: ServerRun[] };
  /** on / off req/s: 0.97 or more means metrics cost under 3 %. */
  throughputRatio: number;
  /** off / on CPU per request. */
  cpuRatio: number;
};

const TOKEN = randomBytes(24).toString("base64url");

export async function benchMetricsOverhead(opts: {
  databaseUrl: string;
  authSecret: string;
  apiKey: string;
  pharmacyNpi: string;
  connections: number;
  seconds: number;
  rounds: number;
}): Promise<MetricsOverheadResult> {
  const ports = { on: await freePort(), off: await freePort() };
  const env = {
    NODE_ENV: "production",
    // The demo pharmacy's NPI, which the fixtures send to (npm start refuses it otherwise).
    ALLOW_DEMO_PHARMACY: "true",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: opts.databaseUrl,
    ...TEST_SECRETS,
    AUTH_SECRET: opts.authSecret,
    PHARMACY_NPI: opts.pharmacyNpi,
    V1_RATE_LIMIT_PER_MINUTE: "1000000000",
  };
  const args = [...SERVER_NODE_FLAGS, "--import", "tsx", "scripts/serve.ts", "start"];
  const servers = {
    on: startProcess(0, process.execPath, args, { ...env, PORT: String(ports.on), METRICS_TOKEN: TOKEN }),
    off: startProcess(0, process.execPath, args, { ...env, PORT: String(ports.off), METRICS_ENABLED: "false" }),
  };
  type Name = keyof typeof servers;
  let scrapes = 0;
  try {
    await waitForHttp(`http://127.0.0.1:${ports.on}/v1/openapi.json`, servers.on);
    await waitForHttp(`http://127.0.0.1:${ports.off}/v1/openapi.json`, servers.off);
    const template = requestTemplate(opts.pharmacyNpi);
    const run = async (name: Name, seconds: number, label: string): Promise<ServerRun> => {
      const done = progress(label, seconds);
      const server = servers[name];
      const cpuBefore = processTreeCpuMs(server.pid!);
      let scraping = name === "on";
      const scraper = (async () => {
        while (scraping) {
          const res = await fetch(`http://127.0.0.1:${ports.on}/metrics`, {
            headers: { authorization: `Bearer ${TOKEN}` },
          });
          if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
          await res.text();
          scrapes++;
          await new Promise((r) => setTimeout(r, 1_000));
        }
      })();
      try {
        const load = await runJsonChild<LoadResult>(1, "bench/load-child.ts", {
          url: `http://127.0.0.1:${ports[name]}`,
          apiKey: opts.apiKey,
          template,
          connections: opts.connections,
          seconds,
          prefix: `metrics-${name}-${randomBytes(4).toString("hex")}`,
        });
        if (load.non2xx > 0 || load.errors > 0)
          throw new Error(`metrics overhead run had failures: ${JSON.stringify(load)}`);
        const cpuMsPerRequest = (processTreeCpuMs(server.pid!) - cpuBefore) / Math.max(1, load.total);
        return { ...load, cpuMsPerRequest: Math.round(cpuMsPerRequest * 1000) / 1000 };
      } finally {
        scraping = false;
        await scraper;
        done();
      }
    };
    for (const name of ["off", "on"] as const) await run(name, Math.min(5, opts.seconds), `metrics warm-up ${name}`);
    const runs: Record<Name, ServerRun[]> = { on: [], off: [] };
    for (let round = 1; round <= opts.rounds; round++) {
      // Alternating which goes first, so neither always runs on the fuller table.
      const order: Name[] = round % 2 === 1 ? ["off", "on"] : ["on", "off"];
      for (const name of order)
        runs[name].push(await run(name, opts.seconds, `metrics ${name} round ${round}/${opts.rounds}`));
    }
    const sum = (rs: ServerRun[]) => ({
      requestsPerSecond: Math.round(median(rs.map((r) => r.requestsPerSecond))),
      cpuMsPerRequest: Math.round(median(rs.map((r) => r.cpuMsPerRequest)) * 1000) / 1000,
      p99: median(rs.map((r) => r.p99)),
      runs: rs,
    });
    const on = sum(runs.on);
    const off = sum(runs.off);
    return {
      connections: opts.connections,
      seconds: opts.seconds,
      rounds: opts.rounds,
      on: { ...on, scrapes },
      off,
      throughputRatio: Math.round((on.requestsPerSecond / off.requestsPerSecond) * 1000) / 1000,
      cpuRatio: Math.round((off.cpuMsPerRequest / on.cpuMsPerRequest) * 1000) / 1000,
    };
  } finally {
    await Promise.all(Object.values(servers).map((server) => stopProcess(server)));
  }
}
