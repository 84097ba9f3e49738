// The service under soak: the production build started as an operator does (`tsx scripts/serve.ts start`,
// which runs the callback worker in-process), in a process group of its own so that a SIGKILL takes the
// whole tree at once (tsx, the serve script with its worker, and Next's server), as a crashed machine or
// container would. Its output goes to a log file across restarts.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import http from "node:http";
import path from "node:path";
import { ROOT } from "../support";

export type ServerState = "starting" | "up" | "down";

export type SoakServer = {
  baseUrl: string;
  state(): ServerState;
  /** Starts the server and resolves once it answers (rejects after `timeoutMs`). */
  start(timeoutMs?: number): Promise<number>;
  /** SIGKILL to the whole process group, without warning. */
  kill(): Promise<void>;
  /** SIGTERM (the graceful path), SIGKILL after 15 s. */
  stop(): Promise<void>;
  /** Synchronous last resort for exit handlers. */
  killNow(): void;
  /** Closes the log file (after the last stop). */
  closeLog(): Promise<void>;
  /** Seconds between a kill and the restarted server answering, summed. */
  downSeconds(): number;
  logFile: string;
};

/**
 * The status of one GET, or 0 for no answer within `timeoutMs`. node:http with a fresh connection each time
 * rather than fetch: a start once waited forever on a fetch whose AbortSignal.timeout never fired (Node 20),
 * through a pooled connection of the instance killed just before.
 */
function probe(url: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", () => resolve(0));
    });
    const timer = setTimeout(() => req.destroy(), timeoutMs);
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(0));
    req.on("close", () => clearTimeout(timer));
  });
}

export function soakServer(opts: { port: number; env: Record<string, string>; logFile: string }): SoakServer {
  const baseUrl = `http://127.0.0.1:${opts.port}`;
  let child: ChildProcess | null = null;
  const out = createWriteStream(opts.logFile, { flags: "a" });
  let state: ServerState = "down";
  let downSince: number | null = null;
  let down = 0;
  let generation = 0;

  const running = (c: ChildProcess): boolean => c.exitCode === null && c.signalCode === null;
  const mark = (text: string) => out.write(`\n===== soak: ${new Date().toISOString()} ${text} =====\n`);

  const signalGroup = (c: ChildProcess, signal: NodeJS.Signals) => {
    try {
      process.kill(-c.pid!, signal);
    } catch {
      // the group is already gone
    }
  };

  const waitExit = (c: ChildProcess) =>
    running(c) ? new Promise<void>((resolve) => c.once("exit", () => resolve())) : Promise.resolve();

  return {
    baseUrl,
    logFile: opts.logFile,
    state: () => state,
    downSeconds: () => down + (downSince !== null ? (Date.now() - downSince) / 1000 : 0),
    start: async (timeoutMs = 120_000) => {
      const started = Date.now();
      generation++;
      mark(`start #${generation}`);
      state = "starting";
      const c = spawn(
        process.execPath,
        [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/serve.ts", "start"],
        {
          cwd: ROOT,
          detached: true,
          env: {
            ...process.env,
            NODE_ENV: "production",
            // The demo pharmacy's NPI, which the fixtures send to (npm start refuses it otherwise).
            ALLOW_DEMO_PHARMACY: "true",
            NEXT_TELEMETRY_DISABLED: "1",
            PORT: String(opts.port),
            ...opts.env,
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      child = c;
      c.stdout?.pipe(out, { end: false });
      c.stderr?.pipe(out, { end: false });
      const deadline = started + timeoutMs;
      for (;;) {
        if (!running(c))
          throw new Error(`the server exited while starting (${c.exitCode ?? c.signalCode}); see ${opts.logFile}`);
        if ((await probe(`${baseUrl}/v1/openapi.json`, 5_000)) === 200) break;
        if (Date.now() > deadline) {
          signalGroup(c, "SIGKILL");
          throw new Error(`the server did not answer within ${timeoutMs / 1000} s; see ${opts.logFile}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      state = "up";
      if (downSince !== null) down += (Date.now() - downSince) / 1000;
      downSince = null;
      return (Date.now() - started) / 1000;
    },
    kill: async () => {
      const c = child;
      if (!c || !running(c)) return;
      state = "down";
      downSince ??= Date.now();
      mark("SIGKILL to the process group");
      const exited = waitExit(c);
      signalGroup(c, "SIGKILL");
      await exited;
    },
    stop: async () => {
      const c = child;
      if (!c || !running(c)) return;
      mark("SIGTERM (end of soak)");
      const exited = waitExit(c);
      signalGroup(c, "SIGTERM");
      const timer = setTimeout(() => signalGroup(c, "SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
      // Anything of the group that outlived the leader.
      signalGroup(c, "SIGKILL");
      state = "down";
    },
    closeLog: () => new Promise<void>((resolve) => out.end(() => resolve())),
    killNow: () => {
      if (child?.pid) signalGroup(child, "SIGKILL");
    },
  };
}

/** /readyz's status over a fresh connection (probe above), "no answer" for none within 3 s. */
export async function readyStatus(baseUrl: string): Promise<number | "no answer"> {
  return (await probe(`${baseUrl}/readyz`, 3_000)) || "no answer";
}
