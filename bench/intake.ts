// Intake throughput, latency and server CPU per request: POST /v1/transfer on the production server
// (`npm start`) against the node:http baseline, both on core 0, the load generator on core 1, distinct
// valid transfers each stored, alternating rounds so both see the same machine. A bare `next start` (Next's
// route handler for the same endpoint) is measured alongside for reference.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import path from "node:path";
import pg from "pg";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { freePort } from "@/tests/support/server";
import {
  median,
  npmStartEnv,
  pinned,
  processTreeCpuMs,
  progress,
  ROOT,
  runJsonChild,
  SERVER_NODE_FLAGS,
  startProcess,
  stopProcess,
  waitForHttp,
} from "./support";

export type LoadResult = {
  requestsPerSecond: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50: number;
  p99: number;
};
/**
 * A load run plus the server's CPU time per request (its whole process tree), which moves less with machine
 * noise than req/s, and the database transactions per request (pg_stat_database: each autocommit statement
 * is one), which does not move with load at all.
 */
export type ServerRun = LoadResult & { cpuMsPerRequest: number; transactionsPerRequest?: number };
export type Summary = {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
  transactionsPerRequest: number;
  runs: ServerRun[];
};
export type IntakeResult = {
  connections: number;
  seconds: number;
  rounds: number;
  ours: Summary;
  baseline: Summary;
  /** The same endpoint through Next's route handler (`next start`), for reference. */
  routeHandler: Summary;
  /** `--intake-before <checkout>`: that checkout's `npm start` (its own build), in the same rounds: an A/B of a change. */
  before?: Summary & { checkout: string; ratio: number; cpuRatio: number };
  /** Ours paced at half the baseline's req/s (the aim: p99 < 100 ms there), by autocannon: a burst at each second's start. */
  atHalfBaseline: { rate: number; requestsPerSecond: number; p50: number; p99: number };
  /** The same rate with starts spread evenly over each second (bench/intake-even-child.ts). */
  atHalfBaselineEven: {
    rate: number;
    requestsPerSecond: number;
    p50: number;
    p99: number;
    cpuMsPerRequest: number;
    /** The baseline paced the same way: the tail the database and the machine give any server. */
    baseline: { p50: number; p99: number };
  };
  /** The machine's 1-minute load average when the intake part started and when it ended. */
  loadAverage: { start: number; end: number };
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

/** What `npm start` needs to serve the bench's database (the demo pharmacy's NPI allowed, no rate limit in the way). */
export type ProductServerOptions = { databaseUrl: string; authSecret: string; pharmacyNpi: string };

function productServerEnv(opts: ProductServerOptions): Record<string, string> {
  return npmStartEnv({ ...opts, env: { AUTH_SECRET: opts.authSecret } });
}

/** INTAKE_CPU_PROF_DIR=<dir>: each server writes a V8 CPU profile to <dir>/<name> when it stops (`node --cpu-prof`). */
function profiledFlags(name: string): string[] {
  const profileDir = process.env.INTAKE_CPU_PROF_DIR;
  return profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir, name)}`] : [];
}

/** The product as `npm start` runs it (its callback worker included, idle here), on core 0. */
export function startProductServer(name: string, port: number, opts: ProductServerOptions): ChildProcess {
  return startProcess(
    0,
    process.execPath,
    [...SERVER_NODE_FLAGS, ...profiledFlags(name), "--import", "tsx", "scripts/serve.ts", "start"],
    { ...productServerEnv(opts), PORT: String(port) },
  );
}

export type MeasureLoadOptions = {
  server: ChildProcess;
  url: string;
  apiKey: string;
  /** The request as JSON text with the load child's placeholders. */
  template: string;
  connections: number;
  seconds: number;
  label: string;
  prefix: string;
  rate?: number;
  /** Starts spread evenly over each second (bench/intake-even-child.ts) instead of autocannon's pacing. */
  even?: boolean;
  /** A connection to count the database's transactions per request with. */
  transactions?: pg.Client;
};

/** One load run against a server (the load on core 1), with the server's CPU per request; failures throw. */
export async function measureLoad(o: MeasureLoadOptions): Promise<ServerRun> {
  const done = progress(o.label, o.seconds);
  const cpuBefore = processTreeCpuMs(o.server.pid!);
  const xactsBefore = o.transactions ? await committed(o.transactions) : 0;
  try {
    const load = await runJsonChild<LoadResult>(1, o.even ? "bench/intake-even-child.ts" : "bench/load-child.ts", {
      url: o.url,
      apiKey: o.apiKey,
      template: o.template,
      connections: o.connections,
      seconds: o.seconds,
      prefix: o.prefix,
      rate: o.rate,
    });
    if (load.non2xx > 0 || load.errors > 0) throw new Error(`${o.label} had failures: ${JSON.stringify(load)}`);
    const cpuMsPerRequest = (processTreeCpuMs(o.server.pid!) - cpuBefore) / Math.max(1, load.total);
    let transactionsPerRequest: number | undefined;
    if (o.transactions) {
      // Backends report their counts within a second of going idle.
      await new Promise((r) => setTimeout(r, 1500));
      transactionsPerRequest =
        Math.round((((await committed(o.transactions)) - xactsBefore) / Math.max(1, load.total)) * 100) / 100;
    }
    return { ...load, cpuMsPerRequest: Math.round(cpuMsPerRequest * 1000) / 1000, transactionsPerRequest };
  } finally {
    done();
  }
}

export function summarize(runs: ServerRun[]): Summary {
  return {
    transactionsPerRequest: Math.round(median(runs.map((r) => r.transactionsPerRequest ?? NaN)) * 100) / 100,
    requestsPerSecond: Math.round(median(runs.map((r) => r.requestsPerSecond))),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuMsPerRequest: Math.round(median(runs.map((r) => r.cpuMsPerRequest)) * 1000) / 1000,
    runs,
  };
}

/** What each intake part takes: the product's settings, the sender's key and the load. */
export type IntakeBenchOptions = ProductServerOptions & {
  apiKey: string;
  connections: number;
  seconds: number;
  rounds: number;
};

export async function benchIntake(
  opts: IntakeBenchOptions & {
    /** A checkout of older code, built (`npm run build`), to run beside ours. */
    before?: string;
  },
): Promise<IntakeResult> {
  const loadStart = Math.round(loadavg()[0]! * 100) / 100;
  const ports = {
    ours: await freePort(),
    baseline: await freePort(),
    routeHandler: await freePort(),
    before: await freePort(),
  };
  const productEnv = productServerEnv(opts);
  const node = (name: string, ...args: string[]) => [...SERVER_NODE_FLAGS, ...profiledFlags(name), ...args];
  const servers = {
    // The product as `npm start` runs it (its callback worker included, idle here).
    ours: startProductServer("ours", ports.ours, opts),
    baseline: startProcess(
      0,
      process.execPath,
      node(
        "baseline",
        "--import",
        "tsx",
        "bench/baseline-server.ts",
        String(ports.baseline),
        opts.databaseUrl,
        opts.pharmacyNpi,
      ),
      {},
    ),
    // For reference: the same handler behind Next's own pipeline (a bare `next start`, as before the direct route).
    routeHandler: startProcess(
      0,
      process.execPath,
      node(
        "route-handler",
        path.join(ROOT, "node_modules/next/dist/bin/next"),
        "start",
        "-p",
        String(ports.routeHandler),
      ),
      productEnv,
    ),
    ...(opts.before
      ? {
          before: startBefore(opts.before, node("before", "--import", "tsx", "scripts/serve.ts", "start"), {
            ...productEnv,
            PORT: String(ports.before),
          }),
        }
      : {}),
  };
  type Name = keyof typeof ports;
  const transactions = new pg.Client({ connectionString: opts.databaseUrl });
  await transactions.connect();
  try {
    if (servers.before) await waitForHttp(`http://127.0.0.1:${ports.before}/v1/openapi.json`, servers.before);
    await waitForHttp(`http://127.0.0.1:${ports.ours}/v1/openapi.json`, servers.ours);
    await waitForHttp(`http://127.0.0.1:${ports.baseline}/`, servers.baseline);
    await waitForHttp(`http://127.0.0.1:${ports.routeHandler}/v1/openapi.json`, servers.routeHandler);
    const template = requestTemplate(opts.pharmacyNpi);
    const run = (name: Name, seconds: number, label: string, rate?: number, even = false): Promise<ServerRun> =>
      measureLoad({
        server: servers[name]!,
        url: `http://127.0.0.1:${ports[name]}`,
        apiKey: opts.apiKey,
        template,
        connections: opts.connections,
        seconds,
        label,
        prefix: `${name}-${randomBytes(4).toString("hex")}`,
        rate,
        even,
        transactions,
      });
    const order: Name[] = opts.before
      ? ["baseline", "before", "ours", "routeHandler"]
      : ["baseline", "ours", "routeHandler"];
    // Warm-up: JIT, pools and Next's lazily compiled route (2 s left the first round visibly colder).
    for (const name of order) await run(name, Math.min(5, opts.seconds), `intake warm-up ${name}`);
    const runs: Record<Name, ServerRun[]> = { ours: [], baseline: [], routeHandler: [], before: [] };
    for (let round = 1; round <= opts.rounds; round++) {
      for (const name of order)
        runs[name].push(await run(name, opts.seconds, `intake ${name} round ${round}/${opts.rounds}`));
    }
    const o = summarize(runs.ours);
    const b = summarize(runs.baseline);
    const old = opts.before ? summarize(runs.before) : undefined;
    // The aim's own terms: latency when ours carries half the baseline's throughput, paced at that rate.
    const halfRate = Math.round(b.requestsPerSecond / 2);
    const paced = await run(
      "ours",
      opts.seconds,
      `intake ours paced at ${halfRate} req/s (half the baseline's)`,
      halfRate,
    );
    const even = await run(
      "ours",
      opts.seconds,
      `intake ours paced evenly at ${halfRate} req/s (half the baseline's)`,
      halfRate,
      true,
    );
    const baselineEven = await run(
      "baseline",
      opts.seconds,
      `intake baseline paced evenly at ${halfRate} req/s`,
      halfRate,
      true,
    );
    const loadAverage = { start: loadStart, end: Math.round(loadavg()[0]! * 100) / 100 };
    process.stdout.write(
      `  ours paced evenly at ${halfRate} req/s: p50 ${even.p50} ms, p99 ${even.p99} ms, ${even.cpuMsPerRequest} ms CPU/request (the baseline paced so: p50 ${baselineEven.p50} ms, p99 ${baselineEven.p99} ms); load average ${loadAverage.start} -> ${loadAverage.end}\n`,
    );
    return {
      connections: opts.connections,
      seconds: opts.seconds,
      rounds: opts.rounds,
      ours: o,
      baseline: b,
      routeHandler: summarize(runs.routeHandler),
      ...(old && opts.before
        ? {
            before: {
              ...old,
              checkout: opts.before,
              ratio: Math.round((old.requestsPerSecond / b.requestsPerSecond) * 100) / 100,
              cpuRatio: Math.round((b.cpuMsPerRequest / old.cpuMsPerRequest) * 100) / 100,
            },
          }
        : {}),
      atHalfBaseline: {
        rate: halfRate,
        requestsPerSecond: Math.round(paced.requestsPerSecond),
        p50: paced.p50,
        p99: paced.p99,
      },
      atHalfBaselineEven: {
        rate: halfRate,
        requestsPerSecond: even.requestsPerSecond,
        p50: even.p50,
        p99: even.p99,
        cpuMsPerRequest: even.cpuMsPerRequest,
        baseline: { p50: baselineEven.p50, p99: baselineEven.p99 },
      },
      loadAverage,
      ratio: Math.round((o.requestsPerSecond / b.requestsPerSecond) * 100) / 100,
      cpuRatio: Math.round((b.cpuMsPerRequest / o.cpuMsPerRequest) * 100) / 100,
    };
  } finally {
    await transactions.end();
    await Promise.all(Object.values(servers).map((server) => stopProcess(server)));
  }
}

/** Committed and rolled-back transactions of this database so far. */
async function committed(client: pg.Client): Promise<number> {
  await client.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await client.query<{ n: string }>(
    "SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()",
  );
  return Number(rows[0]!.n);
}

/** `npm start` of another checkout, on core 0 like ours. */
function startBefore(checkout: string, args: string[], env: Record<string, string>) {
  const [cmd, argv] = pinned(0, process.execPath, args);
  return spawn(cmd, argv, {
    cwd: path.resolve(checkout),
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
}
