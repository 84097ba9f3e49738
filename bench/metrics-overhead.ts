// What /metrics costs the intake: POST /v1/transfer on `npm start` with metrics recorded and scraped
// (METRICS_TOKEN set, a scraper asking for /metrics every second, 15x Prometheus' usual rate) against the same
// server with METRICS_ENABLED=false, in one run, alternating rounds on core 0 with the load on core 1.
// Reported as req/s and server CPU per request, each with the on/off ratio (the aim: under 3 % slower).
import { randomBytes } from "node:crypto";
import { requestTemplate, type LoadResult, type ServerRun } from "./intake";
import { median, processTreeCpuMs, progress, runJsonChild, startNpmStart, stopProcess } from "./support";

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
  const servers = {
    on: await startNpmStart({ ...opts, env: { AUTH_SECRET: opts.authSecret, METRICS_TOKEN: TOKEN } }),
    off: await startNpmStart({ ...opts, env: { AUTH_SECRET: opts.authSecret, METRICS_ENABLED: "false" } }),
  };
  type Name = keyof typeof servers;
  let scrapes = 0;
  try {
    await servers.on.ready;
    await servers.off.ready;
    const template = requestTemplate(opts.pharmacyNpi);
    const run = async (name: Name, seconds: number, label: string): Promise<ServerRun> => {
      const done = progress(label, seconds);
      const server = servers[name].child;
      const cpuBefore = processTreeCpuMs(server.pid!);
      let scraping = name === "on";
      const scraper = (async () => {
        while (scraping) {
          const res = await fetch(`${servers.on.baseUrl}/metrics`, {
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
          url: servers[name].baseUrl,
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
    await Promise.all(Object.values(servers).map((server) => stopProcess(server.child)));
  }
}
