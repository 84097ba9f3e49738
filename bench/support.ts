// Shared pieces of the benchmarks: processes pinned to a core, a progress line, medians and percentiles.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

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
