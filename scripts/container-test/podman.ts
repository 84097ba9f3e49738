// podman and podman-compose as they run here, and the one way this test runs a command: runc (crun cannot
// use this machine's cgroups), cgroupfs (no systemd), and no default ulimits (the sandbox refuses
// setrlimit, even to the current values). The stack runs from a folder of its own (WORK_DIR), made when
// this module loads and removed by clean-up.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { interruptedBy } from "./report";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const IMAGE = "rx-transfer:latest";
export const PROJECT = "rxcontainertest";

export const WORK_DIR = mkdtempSync(path.join(tmpdir(), "rx-container-"));
const containersConf = path.join(WORK_DIR, "containers.conf");
writeFileSync(containersConf, "[containers]\ndefault_ulimits = []\n");
const PODMAN_ARGS = ["--runtime", "runc", "--cgroup-manager", "cgroupfs"];
const env = {
  ...process.env,
  CONTAINERS_CONF: containersConf,
  NEXT_TELEMETRY_DISABLED: "1",
  PODMAN: ["podman", ...PODMAN_ARGS].join(" "), // for scripts/container/build-stand-ins.sh
};

export type Run = { code: number; stdout: string; stderr: string };

type RunOptions = { stream?: boolean; cwd?: string; input?: string; cleanUp?: boolean };

const running = new Set<ReturnType<typeof spawn>>();

/** Runs a command; with `stream`, its output is shown as it comes (for the long builds). */
export function run(cmd: string, args: string[], opts: RunOptions = {}): Promise<Run> {
  const interrupted = interruptedBy();
  if (interrupted && !opts.cleanUp) return Promise.resolve({ code: 130, stdout: "", stderr: interrupted });
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
    running.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (opts.stream) process.stdout.write(d);
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (opts.stream) process.stdout.write(d);
    });
    child.stdin.end(opts.input ?? "");
    child.on("close", (code) => {
      running.delete(child);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** SIGTERM to every command still running (an interrupted run). */
export function stopRunningCommands(): void {
  for (const child of running) child.kill("SIGTERM");
}

export const podman = (args: string[], opts?: Omit<RunOptions, "cwd">) =>
  run("podman", [...PODMAN_ARGS, ...args], opts);
const composeFiles = () => ["-f", path.join(WORK_DIR, "compose.yaml")];
export const compose = (args: string[], opts?: Omit<RunOptions, "cwd">) =>
  run("podman-compose", ["--podman-args", PODMAN_ARGS.join(" "), "-p", PROJECT, ...composeFiles(), ...args], {
    ...opts,
    cwd: WORK_DIR,
  });
export const containerOf = (service: string) => `${PROJECT}_${service}_1`;
export const tail = (r: Run, n = 15) => `${r.stdout}\n${r.stderr}`.trim().split("\n").slice(-n).join("\n");
