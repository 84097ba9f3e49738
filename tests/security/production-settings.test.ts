// `npm start` refuses to serve as the demo pharmacy (PHARMACY_NPI / PHARMACY_NAME unset, or the demo's) and
// to run single sign-on without PUBLIC_URL, the address the provider sends people back to; each refusal
// says what to export. Started as production-secrets.test.ts starts it, with every key given.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { freePort, TEST_SECRETS } from "@/tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-prod-settings-"));
const STORE = { PHARMACY_NPI: "1558598797", PHARMACY_NAME: "Main Street Pharmacy" };

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function start(settings: Record<string, string>): Promise<{ code: number | null; output: string }> {
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
  for (const name of ["PHARMACY_NPI", "PHARMACY_NAME", "ALLOW_DEMO_PHARMACY", "PUBLIC_URL", "DASHBOARD_URL"])
    delete env[name];
  Object.assign(env, settings);
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

describe("npm start's store identity", () => {
  it("is required: without PHARMACY_NPI and PHARMACY_NAME it refuses, saying what to export", async () => {
    const { code, output } = await start({});
    expect(code, output).toBe(2);
    expect(output).toContain("PHARMACY_NPI is not set (or is the demo's 1245319599): export PHARMACY_NPI=");
    expect(output).toContain('PHARMACY_NAME is not set (or is the demo\'s "Riverside Community Pharmacy")');
    expect(output).not.toContain("ready on");
  });

  it("refuses the demo NPI given explicitly", async () => {
    const { code, output } = await start({ PHARMACY_NPI: "1245319599", PHARMACY_NAME: STORE.PHARMACY_NAME });
    expect(code, output).toBe(2);
    expect(output).toContain("PHARMACY_NPI is not set (or is the demo's 1245319599)");
    expect(output).not.toContain("PHARMACY_NAME is not set");
  });
});

describe("npm start with single sign-on", () => {
  it("refuses without PUBLIC_URL, naming it and the redirect URI to register", async () => {
    const { code, output } = await start({
      ...STORE,
      OIDC_ISSUER: "http://127.0.0.1:9/issuer",
      OIDC_CLIENT_ID: "rx",
      OIDC_CLIENT_SECRET: "secret",
    });
    expect(code, output).toBe(2);
    expect(output).toContain("PUBLIC_URL is not set, and single sign-on (OIDC_ISSUER) needs it: export PUBLIC_URL=");
    expect(output).toContain("<PUBLIC_URL>/api/auth/callback/oidc");
  });
});
