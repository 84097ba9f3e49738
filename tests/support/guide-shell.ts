// Runs an operator's shell commands as written (bash, stopping at the first failing command), in a clean
// environment: the rehearsal's processes get only what the guide's commands give them, not the test
// runner's variables. Long-running commands (`npm start`, `npm run worker`) run in a process group of their
// own, so that stopping one stops npm and the node process under it.
import { spawn, type ChildProcess } from "node:child_process";

/** What an operator's login shell has, and nothing of the test runner's. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8" };
  if (process.env.HOME) base.HOME = process.env.HOME;
  return { ...base, NEXT_TELEMETRY_DISABLED: "1", ...extra };
}

export type ShellResult = { code: number | null; stdout: string; stderr: string };

export function runShell(
  script: string,
  opts: { cwd: string; env: Record<string, string>; stdin?: string; timeoutMs?: number },
): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      killGroup(child, "SIGKILL");
      reject(new Error(`did not finish in ${(opts.timeoutMs ?? 120_000) / 1000} s:\n${script}\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.stdin ?? "");
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function isGroupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

export type BackgroundShell = {
  output(): string;
  exited(): boolean;
  /** Resolves once `pattern` appears in the output; rejects if the process exits first or after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
};

export function startShell(script: string, opts: { cwd: string; env: Record<string, string> }): BackgroundShell {
  const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], {
    cwd: opts.cwd,
    env: opts.env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const w of [...wakers]) w();
  };
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
    wake();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
    wake();
  });
  child.on("exit", wake);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    output: () => output,
    exited,
    waitForOutput: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) {
            done();
            resolve();
          } else if (exited()) {
            done();
            reject(new Error(`exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${output}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${pattern} in ${timeoutMs / 1000} s:\n${output}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          wakers.delete(check);
        };
        wakers.add(check);
        check();
      }),
    stop: async () => {
      killGroup(child, "SIGTERM");
      // bash may be gone before npm and node finish their graceful stop: wait for the whole group.
      const deadline = Date.now() + 20_000;
      while (isGroupAlive(child) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      killGroup(child, "SIGKILL");
    },
  };
}
