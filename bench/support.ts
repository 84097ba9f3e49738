// Shared pieces of the benchmarks: processes pinned to a core, a progress line, medians and percentiles.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { setEnv } from "@/lib/env";
import { freePort, TEST_SECRETS } from "@/tests/support/server";

export const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * `npm start`'s Node flags (package.json): a larger young generation, so fewer objects of finished requests
 * survive into the old one. Every server the benchmark compares runs with them, the baseline included.
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=64"];
const HAS_TASKSET = existsSync("/usr/bin/taskset");

/** Server on core 0, load generator on core 1 (as docs/performance.md measured), where taskset exists. */
export function pinned(core: 0 | 1, command: string, args: string[]): [string, string[]] {
  return HAS_TASKSET ? ["taskset", ["-c", String(core), command, ...args]] : [command, args];
}

export function startProcess(core: 0 | 1, command: string, args: string[], env: Record<string, string>): ChildProcess {
  const [cmd, argv] = pinned(core, command, args);
  return spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
}

export async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited early (${child.exitCode}): ${stderr}`);
    try {
      await fetch(url, { method: "GET" });
      return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer in time: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * This process's settings over the bench's database: the run's keys (what it seals and audits, `npm start`
 * reads with the same), callbacks allowed to the local plain-HTTP receivers, and warnings only in the log.
 */
export function setBenchEnv(databaseUrl: string): void {
  setEnv({
    DATABASE_URL: databaseUrl,
    ...TEST_SECRETS,
    CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
    CALLBACK_ALLOW_INSECURE_HTTP: "true",
    LOG_LEVEL: "warn",
  });
}

/** `npm start` as the benchmarks run it: its own Node flags and entry (its callback worker included). */
export const NPM_START_ARGS = [...SERVER_NODE_FLAGS, "--import", "tsx", "scripts/serve.ts", "start"];

export type BenchServer = { child: ChildProcess; port: number; baseUrl: string; ready: Promise<void> };

/**
 * `npm start`'s environment over `databaseUrl` as the benchmarks run it: production mode with the run's keys,
 * the demo pharmacy's NPI allowed (the fixtures send to it, and `npm start` refuses it otherwise) and no intake
 * rate limit in the way; `env` adds or overrides settings.
 */
export function npmStartEnv(opts: {
  databaseUrl: string;
  pharmacyNpi: string;
  env?: Record<string, string>;
}): Record<string, string> {
  return {
    NODE_ENV: "production",
    ALLOW_DEMO_PHARMACY: "true",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: opts.databaseUrl,
    ...TEST_SECRETS,
    PHARMACY_NPI: opts.pharmacyNpi,
    V1_RATE_LIMIT_PER_MINUTE: "1000000000",
    ...opts.env,
  };
}

/**
 * `npm start` on core 0 over `databaseUrl` with npmStartEnv's settings; `env` adds or overrides settings.
 * `ready` settles once it answers (or rejects with its stderr if it exits first).
 */
export async function startNpmStart(opts: {
  databaseUrl: string;
  pharmacyNpi: string;
  env?: Record<string, string>;
}): Promise<BenchServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = startProcess(
    0,
    process.execPath,
    NPM_START_ARGS,
    npmStartEnv({ ...opts, env: { PORT: String(port), ...opts.env } }),
  );
  const ready = waitForHttp(`${baseUrl}/v1/openapi.json`, child);
  // Awaited by the caller, maybe after another server's: not an unhandled rejection meanwhile.
  ready.catch(() => {});
  return { child, port, baseUrl, ready };
}

/** A one-line progress display that rewrites itself on a terminal and prints plainly elsewhere. */
export function progress(label: string, seconds: number): () => void {
  const started = Date.now();
  const tty = process.stdout.isTTY;
  if (!tty) process.stdout.write(`  … ${label} (${seconds} s)\n`);
  const timer = setInterval(() => {
    if (!tty) return;
    const done = Math.min(seconds, (Date.now() - started) / 1000);
    const width = 24;
    const filled = Math.round((done / seconds) * width);
    process.stdout.write(
      `\r  ${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done.toFixed(0)}/${seconds} s `,
    );
  }, 500);
  return () => {
    clearInterval(timer);
    if (tty) process.stdout.write(`\r  ${label} done${" ".repeat(40)}\n`);
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function runJsonChild<T>(core: 0 | 1, script: string, arg: unknown): Promise<T> {
  const [cmd, argv] = pinned(core, process.execPath, [
    path.join(ROOT, "node_modules/tsx/dist/cli.mjs"),
    script,
    JSON.stringify(arg),
  ]);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`${script} failed (${code}): ${err}`));
      try {
        resolve(JSON.parse(out.trim().split("\n").pop()!) as T);
      } catch {
        reject(new Error(`${script} printed no JSON: ${out} ${err}`));
      }
    });
  });
}

/** CPU time (user + system, ms) used so far by a process and all its descendants, from /proc (Linux). */
export function processTreeCpuMs(rootPid: number): number {
  const ticksPerSecond = 100; // USER_HZ on Linux
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name (which may hold spaces) start at state; ppid is the 2nd, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const pid = Number(entry);
    const ppid = Number(fields[1]);
    cpu.set(pid, Number(fields[11]) + Number(fields[12]));
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  let ticks = 0;
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    ticks += cpu.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return (ticks / ticksPerSecond) * 1000;
}
