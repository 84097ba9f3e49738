// `npm start` (production) refuses to run without explicit AUTH_SECRET, DATA_ENCRYPTION_KEY and
// AUDIT_HMAC_KEY, saying how to make them; generating them into the data directory is for `npm run dev`
// only. Started as tests/support/server.ts starts the server, with the variable removed.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { freePort, TEST_SECRETS } from "@/tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-prod-secrets-"));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `npm start` with the test secrets minus `remove`; resolves with its exit code and output (or kills it after 60 s). */
async function startWithout(remove: string[]): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(await freePort()),
    DATABASE_URL: inject("databaseUrl"),
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ...TEST_SECRETS,
  };
  for (const name of remove) delete env[name];
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}

describe("production start without secrets", () => {
  for (const name of ["AUTH_SECRET", "DATA_ENCRYPTION_KEY", "AUDIT_HMAC_KEY"]) {
    it(`refuses to start without ${name}, and says how to make it`, async () => {
      const { code, output } = await startWithout([name]);
      expect(code, output).toBe(2);
      expect(output).toContain(`refusing to start in production without ${name}`);
      expect(output).toContain("openssl rand -base64 32");
      expect(output).not.toContain("ready on");
    });
  }

  it("names every missing secret at once, and generates none into the data directory", async () => {
    const { code, output } = await startWithout(["AUTH_SECRET", "DATA_ENCRYPTION_KEY", "AUDIT_HMAC_KEY"]);
    expect(code, output).toBe(2);
    expect(output).toContain("without AUTH_SECRET, DATA_ENCRYPTION_KEY, AUDIT_HMAC_KEY");
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
