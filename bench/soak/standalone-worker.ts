// `npm run worker` under the scale-out soak: its own process group (SIGKILL takes the whole tree), output to
// the soak's log.
import { spawn, type ChildProcess } from "node:child_process";
import type { WriteStream } from "node:fs";
import path from "node:path";
import { ROOT } from "../support";

export type StandaloneWorker = {
  start(): Promise<void>;
  kill(): Promise<void>;
  stop(): Promise<void>;
  killNow(): void;
  isRunning(): boolean;
};

export function standaloneWorker(env: Record<string, string>, out: WriteStream): StandaloneWorker {
  let child: ChildProcess | null = null;
  const running = () => child !== null && child.exitCode === null && child.signalCode === null;
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (child?.pid) process.kill(-child.pid, sig);
    } catch {
      // gone already
    }
  };
  const exited = () => (running() ? new Promise<void>((r) => child!.once("exit", () => r())) : Promise.resolve());
  return {
    isRunning: running,
    start: async () => {
      let output = "";
      const c = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/worker.ts"], {
        cwd: ROOT,
        detached: true,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = c;
      c.stdout?.on("data", (d: Buffer) => (output += d.toString()));
      c.stdout?.pipe(out, { end: false });
      c.stderr?.pipe(out, { end: false });
      const deadline = Date.now() + 60_000;
      while (!output.includes("running (")) {
        if (!running() || Date.now() > deadline) throw new Error(`the standalone worker did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    kill: async () => {
      const done = exited();
      signal("SIGKILL");
      await done;
    },
    stop: async () => {
      const done = exited();
      signal("SIGTERM");
      const timer = setTimeout(() => signal("SIGKILL"), 15_000);
      await done;
      clearTimeout(timer);
    },
    killNow: () => signal("SIGKILL"),
  };
}
