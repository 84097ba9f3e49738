// Debian's nginx for the production rehearsal, run by the test without root's files: a main configuration
// in a temporary directory (pid, logs, temp paths there; no daemon) around a server configuration the caller
// gives (deploy.md's, with the test's ports and certificate). Stopped with SIGQUIT (graceful), then SIGKILL.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";

export const NGINX = "/usr/sbin/nginx";

export type RunningNginx = { confFile: string; errorLog(): string; stop(): Promise<void> };

/** The main configuration around `serverConfig` (the contents of nginx's `http` block). */
function mainConfig(dir: string, serverConfig: string): string {
  const tmp = (name: string) => path.join(dir, "tmp", name);
  return [
    // Under root, workers would run as nobody and could not write the temp paths in our 0700 directory.
    typeof process.getuid === "function" && process.getuid() === 0 ? "user root;" : "",
    "worker_processes 1;",
    "daemon off;",
    `pid ${path.join(dir, "nginx.pid")};`,
    `error_log ${path.join(dir, "error.log")} warn;`,
    "events { worker_connections 256; }",
    "http {",
    `  access_log ${path.join(dir, "access.log")};`,
    `  client_body_temp_path ${tmp("body")};`,
    `  proxy_temp_path ${tmp("proxy")};`,
    `  fastcgi_temp_path ${tmp("fastcgi")};`,
    `  uwsgi_temp_path ${tmp("uwsgi")};`,
    `  scgi_temp_path ${tmp("scgi")};`,
    serverConfig,
    "}",
    "",
  ].join("\n");
}

/** `nginx -t` on the configuration: the output when it is refused, null when it is accepted. */
function testConfig(dir: string, confFile: string): string | null {
  const result = spawnSync(NGINX, ["-t", "-p", dir, "-e", path.join(dir, "error.log"), "-c", confFile], {
    encoding: "utf8",
  });
  return result.status === 0 ? null : `${result.stdout}${result.stderr}`;
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

export async function startNginx(opts: { dir: string; serverConfig: string; port: number }): Promise<RunningNginx> {
  const { dir } = opts;
  mkdirSync(path.join(dir, "tmp"), { recursive: true });
  const confFile = path.join(dir, "nginx.conf");
  writeFileSync(confFile, mainConfig(dir, opts.serverConfig));
  const refused = testConfig(dir, confFile);
  if (refused) throw new Error(`nginx -t refused the configuration:\n${refused}\n${readFileSync(confFile, "utf8")}`);
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, "error.log"), "utf8");
    } catch {
      return "";
    }
  };
  let output = "";
  const child: ChildProcess = spawn(NGINX, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", confFile], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 15_000;
  while (!(await isListening(opts.port))) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${output}\n${errorLog()}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`nginx did not listen on ${opts.port} in 15 s: ${output}\n${errorLog()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    confFile,
    errorLog,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGQUIT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
