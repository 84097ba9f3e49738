// `npm run dev` opened at http://127.0.0.1:<port> rather than localhost: Next used to refuse
// that page its development scripts, so it never hydrated. This starts the development server as
// `npm run dev` does (scripts/serve.ts dev, on a database of its own, so the demo data is seeded as on a
// first start), and signs in there with the demo pharmacist. `next dev` writes to .next/dev (Next 16), so
// the production build the other tests use is left alone. It compiles each page on first request: slow.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { createOwnDatabase } from "./own-database";
import { freePort, TEST_SECRETS } from "../tests/support/server";

const ROOT = path.resolve(import.meta.dirname, "..");

test("the development server opened at 127.0.0.1 hydrates, the demo pharmacist signs in to the queue, and malformed paths are 400s", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const database = await createOwnDatabase("rx_e2e_dev");
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "rx-e2e-dev-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    // With DATABASE_URL set, development too must be given the keys (no generated ones in DATA_DIR).
    ...TEST_SECRETS,
    RUN_WORKER: "false",
  };
  delete env.DEV_ALLOWED_ORIGINS;
  // Its own process group, so stopping it takes `next dev` (its child) along.
  const server = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/serve.ts", "dev"],
    {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  server.stdout.on("data", (d: Buffer) => (output += d.toString()));
  server.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise((resolve) => server.once("exit", resolve));

  try {
    // The first request compiles the page: wait for a real answer, not only for the port.
    await expect
      .poll(
        async () => {
          if (server.exitCode !== null)
            throw new Error(`the development server exited (${server.exitCode}):\n${output}`);
          return fetch(`${base}/login`).then(
            (r) => r.status,
            () => 0,
          );
        },
        { timeout: 180_000, intervals: [1_000] },
      )
      .toBe(200);
    // What it prints at start: the addresses that work.
    expect(output).toContain(`open http://localhost:${port} (or ${base}, http://[::1]:${port})`);

    const demo = JSON.parse(await readFile(path.join(dataDir, "demo-credentials.json"), "utf8")) as {
      pharmacist: { email: string; password: string };
    };
    await page.goto(`${base}/login`);
    // Hydrated: React has attached itself to the server-rendered form (it never did at 127.0.0.1 before).
    await page.waitForFunction(
      () => {
        const form = document.querySelector("form");
        return form !== null && Object.keys(form).some((key) => key.startsWith("__reactFiber"));
      },
      undefined,
      { timeout: 120_000 },
    );
    await page.getByLabel("Email").fill(demo.pharmacist.email);
    await page.getByLabel("Password").fill(demo.pharmacist.password);
    const signInPost = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/login");
    await page.getByRole("button", { name: "Sign in" }).click();
    // Posted by React (the Server Action's fetch carries its id in a header), not by the browser's own form post.
    expect(await (await signInPost).headerValue("next-action")).toBeTruthy();

    await expect(page).toHaveURL(`${base}/transfers`, { timeout: 120_000 });
    await expect(page.getByRole("heading", { name: "Transfer queue" })).toBeVisible({ timeout: 120_000 });
    // The queue's rows come from its client-side query: the demo transfers arrive only if scripts run.
    await expect(page.getByRole("row").filter({ hasText: "Demo Mail-Order Pharmacy" }).first()).toBeVisible({
      timeout: 120_000,
    });
    expect(output).not.toContain("Blocked cross-origin request");

    // Under `next dev` proxy.ts answers a path that does not decode (npm start's own server does it there).
    const badPage = await page.request.get(`${base}/transfers/%ZZ`);
    expect(badPage.status()).toBe(400);
    expect(await badPage.text()).toContain("This address is not valid");
    const badApi = await page.request.get(`${base}/api/transfers/%ZZ`);
    expect(badApi.status()).toBe(400);
    expect(badApi.headers()["content-type"]).toContain("application/problem+json");
  } finally {
    if (server.exitCode === null && server.pid) {
      process.kill(-server.pid, "SIGTERM");
      const timer = setTimeout(() => server.pid && process.kill(-server.pid, "SIGKILL"), 20_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
    await database.drop();
  }
});
