// Starts the production build the way an operator does (`npm start` with DATABASE_URL set) on a free port,
// for integration and browser tests.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Builds once when there is no production build yet (`npm test` builds before it gets here). */
export function ensureBuild(): void {
  if (existsSync(path.join(ROOT, ".next", "BUILD_ID"))) return;
  const result = spawnSync("npm", ["run", "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}

export type TestServer = {
  baseUrl: string;
  port: number;
  stop(): Promise<void>;
  output(): string;
  signal(sig: NodeJS.Signals): void;
  exited(): Promise<number | null>;
};

export type TestSecrets = { AUTH_SECRET: string; DATA_ENCRYPTION_KEY: string; AUDIT_HMAC_KEY: string };

/**
 * The secrets the test servers run with (`npm start` requires them explicitly). Test processes that write to
 * their databases (sealed secrets, audit records) need the same: made once per run and handed to every
 * process of the run (test workers, CLI and worker children) through RX_TEST_SECRETS.
 */
function testSecrets(): TestSecrets {
  const given = process.env.RX_TEST_SECRETS;
  if (given) return JSON.parse(given) as TestSecrets;
  const made = {
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    AUDIT_HMAC_KEY: randomBytes(32).toString("base64"),
  };
  process.env.RX_TEST_SECRETS = JSON.stringify(made);
  return made;
}

export const TEST_SECRETS: TestSecrets = testSecrets();

/** The AUTH_SECRET the test server runs with. */
export const TEST_AUTH_SECRET = TEST_SECRETS.AUTH_SECRET;

export async function startTestServer(opts: {
  databaseUrl: string;
  env?: Record<string, string>;
  /** A port chosen beforehand (freePort), for a PUBLIC_URL that names it. */
  port?: number;
}): Promise<TestServer> {
  ensureBuild();
  const port = opts.port ?? (await freePort());
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/serve.ts", "start"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        // The fixtures send to the demo pharmacy, which `npm start` otherwise refuses to be.
        ALLOW_DEMO_PHARMACY: "true",
        PORT: String(port),
        DATABASE_URL: opts.databaseUrl,
        ...TEST_SECRETS,
        LOG_LEVEL: "warn",
        CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
        // The suites that sign in as admins predate two-factor; the two-factor suites set their own policy.
        MFA_REQUIRED: "none",
        CALLBACK_ALLOW_INSECURE_HTTP: "true",
        // Fuzzing and many files share one address and client: tests/security/oauth-limits.test.ts sets its own.
        OAUTH_TOKEN_RATE_LIMIT_PER_ADDRESS: "100000",
        OAUTH_TOKEN_RATE_LIMIT_PER_CLIENT: "100000",
        ...opts.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/v1/openapi.json`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become ready in 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    baseUrl,
    port,
    output: () => output,
    signal: (sig) => void child.kill(sig),
    exited: () =>
      child.exitCode !== null
        ? Promise.resolve(child.exitCode)
        : new Promise((r) => child.once("exit", (code) => r(code))),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
