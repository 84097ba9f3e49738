// `npm run dev` and `npm start`: the database (embedded unless DATABASE_URL is set), migrations (ours and the
// job queue's), this pharmacy's store row, demo data on first dev start, the callback worker (unless
// RUN_WORKER=false), then the web server: in production Next runs in this process behind
// lib/http/production-server.ts; in development `next dev` runs as a child.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { startAuditHeadLog } from "@/lib/audit/audit-head-log";
import { startCallbackWorker, type CallbackWorker } from "@/lib/callbacks/worker";
import { disconnectDb } from "@/lib/db/prisma";
import { flushPartnerAnswers } from "@/lib/partners/partner-answer-counts";
import { env, setEnv } from "@/lib/env";
import { seedDemoOnce } from "@/lib/demo/seed-demo";
import { startDevFront } from "@/lib/http/dev-front";
import { devUrls } from "@/lib/http/dev-origins";
import { startProductionServer } from "@/lib/http/production-server";
import { errorFields, log } from "@/lib/log";
import { startOpsListeners } from "@/lib/ops/serve-ops";
import { ensureConfiguredStore } from "@/lib/stores/store-npis";
import { classifyStoredTransfers } from "@/lib/transfers/intake";
import {
  checkKeysAgainstDatabase,
  dataDir,
  ensureSecrets,
  loadEnvOrExit,
  requireProductionSettings,
  startDatabase,
} from "./runtime";

const arg = process.argv[2];
if (arg !== "dev" && arg !== "start") {
  process.stderr.write("usage: tsx scripts/serve.ts dev|start\n");
  process.exit(2);
}
const mode: "dev" | "start" = arg;

const ROOT = path.resolve(import.meta.dirname, "..");
const say = (msg: string) => process.stdout.write(`[rx-transfer] ${msg}\n`);

async function main(): Promise<void> {
  // The demo partner's callback URL is this server's own /demo/callbacks on 127.0.0.1: in development,
  // callbacks to loopback and private networks are allowed unless the variable says otherwise.
  if (mode === "dev" && !process.env.CALLBACK_ALLOW_PRIVATE_NETWORKS) {
    setEnv({ CALLBACK_ALLOW_PRIVATE_NETWORKS: "true" });
  }
  // ... and it is plain http, which production refuses for callbacks.
  if (mode === "dev" && !process.env.CALLBACK_ALLOW_INSECURE_HTTP) {
    setEnv({ CALLBACK_ALLOW_INSECURE_HTTP: "true" });
  }
  loadEnvOrExit();
  // Production needs its keys, the store's identity and (with SSO) PUBLIC_URL given explicitly; development
  // on the embedded database generates missing keys into DATA_DIR.
  if (mode === "start") requireProductionSettings();
  else ensureSecrets(say);
  // next-auth builds its URLs (SSO's redirect URI, its redirects) from AUTH_URL when set, else from the
  // request URL, which Next names http://localhost:PORT whatever the browser opened.
  const publicUrl = env().PUBLIC_URL;
  if (publicUrl) setEnv({ AUTH_URL: publicUrl });
  // SIGINT/SIGTERM are handled below: the database stops last, after the web server and the worker.
  const db = await startDatabase({ log: say, callerHandlesSignals: true });
  say(db.embedded ? `embedded PostgreSQL ready (data in ${dataDir()})` : "using DATABASE_URL");
  try {
    await checkKeysAgainstDatabase();
  } catch (err) {
    await disconnectDb();
    await db.stop();
    throw err;
  }
  await ensureConfiguredStore();
  const classified = await classifyStoredTransfers();
  if (classified > 0) say(`classified the drug of ${classified} stored transfers (schedule, allergy alert)`);
  if (mode === "dev") {
    const demo = await seedDemoOnce({ dataDir: dataDir(), port: env().PORT });
    for (const line of demo.lines) say(line);
    if (env().CALLBACK_ALLOW_PRIVATE_NETWORKS) say("callbacks to loopback and private networks allowed (development)");
  }
  const auditHeads = await startAuditHeadLog();
  await disconnectDb();

  let worker: CallbackWorker | null = null;
  if (env().RUN_WORKER) {
    worker = await startCallbackWorker({ connectionString: db.databaseUrl });
    say(
      `callback worker running (${env().WORKER_CONCURRENCY} at once; RUN_WORKER=false to run it apart with \`npm run worker\`)`,
    );
  }

  const web = mode === "start" ? await startInProcess() : await spawnNextDev();
  const ops = await startOpsListeners(say);

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // /readyz answers 503 from now on; SHUTDOWN_DRAIN_SECONDS lets a load balancer see it before we close.
    await ops.drain();
    // The worker finishes (or hands back) the deliveries in flight before the database goes away.
    await Promise.all([worker?.stop(), web.stop(), ops.close()]);
    await auditHeads.stop(); // the last head, after the last request's record
    await flushPartnerAnswers(); // the last answers' counts (lib/partners/partner-answer-counts.ts)
    await disconnectDb();
    await db.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  web.exited?.then((code) => void shutdown(code));
  worker?.done.catch((err: unknown) => {
    log("error", "callback worker stopped unexpectedly", errorFields(err));
    void shutdown(1);
  });
}

type WebServer = { stop(): Promise<void>; exited?: Promise<number> };

/** Production: Next in this process behind our own HTTP server (lib/http/production-server.ts). */
async function startInProcess(): Promise<WebServer> {
  Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production", NEXT_TELEMETRY_DISABLED: "1" });
  const server = await startProductionServer({ dir: ROOT, port: env().PORT });
  const publicUrl = env().PUBLIC_URL;
  say(`ready on http://localhost:${env().PORT}${publicUrl ? ` (public address ${publicUrl})` : ""}`);
  return { stop: () => server.close() };
}

function loopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Development: `next dev` as a child, so edits reload as Next means them to, on a loopback port behind
 * lib/http/dev-front.ts, which resolves the client's address as production does.
 */
async function spawnNextDev(): Promise<WebServer> {
  // Next prints its own "Network" address too, but it serves pages there only if the host is allowed.
  const [first, ...others] = devUrls(env().PORT, env().DEV_ALLOWED_ORIGINS);
  say(`open ${first} (or ${others.join(", ")}); for any other host, list it in DEV_ALLOWED_ORIGINS`);
  const innerPort = await loopbackPort();
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const child = spawn(process.execPath, [nextBin, "dev", "-p", String(innerPort), "-H", "127.0.0.1"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const front = await startDevFront({ port: env().PORT, targetPort: innerPort, trusted: env().TRUSTED_PROXIES });
  return {
    exited: new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1))),
    stop: async () => {
      await front.close();
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`[rx-transfer] could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
