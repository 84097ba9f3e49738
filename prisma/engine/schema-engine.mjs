#!/usr/bin/env node
// The Prisma CLI's schema engine, for machines that cannot download Prisma's native binary.
//
// prisma.config.ts points PRISMA_SCHEMA_ENGINE_BINARY here. The CLI spawns this file as it would the
// native `schema-engine` and talks to it in line-delimited JSON-RPC 2.0 over stdin/stdout (log lines
// as JSON on stderr). Each call is forwarded to the same engine compiled to WebAssembly
// (@prisma/schema-engine-wasm), which runs its SQL through @prisma/adapter-pg and pg (postgres.mjs).
//
//   schema-engine.mjs --datamodels <file>… --datasource '<json {url, shadowDatabaseUrl?}>' [...]
//       JSON-RPC server (migrate dev/deploy/diff/reset/status, db push/execute/pull)
//   schema-engine.mjs --datasource '<json>' cli can-connect-to-database | create-database
//       one-shot runs: exit code + log lines on stderr
//
// Re-verify the whole migrate cycle (tests/integration/migrate-cycle.test.ts) after any upgrade of
// prisma, @prisma/adapter-pg or @prisma/schema-engine-wasm: this file follows their internals.

import { readFileSync } from "node:fs";
import readline from "node:readline";
import {
  FixedPgAdapterFactory,
  UserFacingError,
  checkConnection,
  createDatabase,
  parseDatabaseUrl,
} from "./postgres.mjs";
import { startWasmEngine, takePanicMessage } from "./wasm.mjs";

// ---- log lines on stderr, in the native engine's format (the CLI reads fields.message and level) --

function writeLog(level, message, extraFields = {}) {
  const line = {
    timestamp: new Date().toISOString(),
    level,
    fields: { message, ...extraFields },
    target: "schema_engine::logger",
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

// ---- arguments ---------------------------------------------------------------------------------

function parseArgs(argv) {
  const args = { datamodels: [], datasource: undefined, datasourceError: undefined, cliCommand: undefined };
  for (let i = 0; i < argv.length; i++) {
    switch (argv[i]) {
      case "--datamodels":
        args.datamodels.push(argv[++i]);
        break;
      case "--datasource":
        try {
          args.datasource = JSON.parse(argv[++i]);
        } catch {
          args.datasourceError = "The --datasource argument is not valid JSON.";
        }
        break;
      case "--enabled-preview-features":
      case "--extension-types":
        i++; // nothing the WASM engine takes
        break;
      case "cli":
        args.cliCommand = argv[++i];
        break;
      case "--version":
        args.cliCommand = "--version";
        break;
    }
  }
  return args;
}

/** The pg connection config of the datasource; errors become replies, not a crash at startup. */
function datasourceConfig(args) {
  if (args.datasourceError) throw new UserFacingError(args.datasourceError);
  if (!args.datasource?.url) {
    throw new UserFacingError(
      "No datasource URL: set DATABASE_URL (prisma.config.ts reads it) to a postgresql:// URL.",
      "P1012",
    );
  }
  return parseDatabaseUrl(args.datasource.url);
}

// ---- one-shot runs: `cli can-connect-to-database` / `cli create-database` ----------------------

/**
 * The CLI reads the exit code, and on failure the stderr lines after the first: the line with
 * level ERROR and target schema_engine::logger gives fields.error_code (P1003 "database does not
 * exist" makes `migrate dev/deploy` create it) and fields.message.
 */
async function runCliCommand(args) {
  // Only our JSON lines may reach stderr: silence Node's warnings.
  process.removeAllListeners("warning");
  process.on("warning", () => {});
  writeLog("INFO", `Starting schema engine CLI command ${args.cliCommand}`);
  try {
    const config = datasourceConfig(args);
    if (args.cliCommand === "can-connect-to-database") {
      await checkConnection(config);
    } else if (args.cliCommand === "create-database") {
      const name = await createDatabase(config);
      writeLog("INFO", `Database '${name}' was successfully created.`);
    } else {
      throw new UserFacingError(`Unknown CLI command: ${args.cliCommand}`);
    }
    return 0;
  } catch (error) {
    const fields = error instanceof UserFacingError && error.errorCode ? { error_code: error.errorCode } : {};
    writeLog("ERROR", error?.message ?? String(error), fields);
    return 1;
  }
}

// ---- JSON-RPC server ---------------------------------------------------------------------------

function send(message) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
}

// Requests we send to the CLI (only "print"), waiting for its acknowledgement.
let nextOwnRequestId = 1;
const pendingOwnRequests = new Map();

function askCli(method, params) {
  const id = nextOwnRequestId++;
  return new Promise((resolve) => {
    pendingOwnRequests.set(id, resolve);
    send({ id, method, params });
  });
}

/**
 * The engine behind the RPC methods: created on first use, so that a bad datasource URL becomes
 * an error reply to the first request instead of a silent exit.
 */
let enginePromise;
let adapterFactory;
let adapterErrorRegistry; // JS errors thrown inside the adapter, which the engine refers to by id

function getEngine(args) {
  enginePromise ??= (async () => {
    const config = datasourceConfig(args);
    adapterFactory = new FixedPgAdapterFactory(config, {
      shadowDatabaseUrl: args.datasource?.shadowDatabaseUrl,
    });
    const datamodels = args.datamodels.length
      ? args.datamodels.map((file) => [file, readFileSync(file, "utf8")])
      : undefined; // must be undefined or non-empty
    const started = await startWasmEngine({ datamodels, adapterFactory, onLog: forwardEngineLog });
    adapterErrorRegistry = started.errorRegistry;
    return started.engine;
  })();
  return enginePromise;
}

function forwardEngineLog(line) {
  // The engine logs JSON lines in the native format already; anything else is wrapped.
  const text = String(line).trimEnd();
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && parsed.fields) {
      process.stderr.write(`${text}\n`);
      return;
    }
  } catch {
    // not JSON
  }
  writeLog("INFO", text);
}

/** Methods whose name or result differ between the CLI's protocol and the WASM engine. */
const renamedMethods = {
  // The CLI's name for the engine's `version`.
  getDatabaseVersion: (engine, params) => engine.version(params ?? undefined),
  // The native engine prints the diff through a "print" request to the CLI (which also captures it
  // for --output); the WASM engine returns it instead.
  diff: async (engine, params) => {
    const { exitCode, stdout } = await engine.diff(params);
    if (stdout) await askCli("print", { content: stdout.replace(/\n$/, "") });
    return { exitCode };
  },
};

/**
 * The migrations' schema cache of the WASM engine. Only `devDiagnostic` and `diagnoseMigrationHistory`
 * hold the adapter factory's shadow database: they replay the migrations APPLIED to the database
 * there and cache the resulting schema, keyed by that list of migrations. `evaluateDataLoss` and
 * `createMigration` only look the schema of ALL the migrations up in that cache; on a miss they fall
 * back to a shadow database of their own, which the WASM engine cannot create ("PostgreSQL shadow DB
 * must be provided through an external factory"; the native engine can).
 *
 * `migrate dev` runs devDiagnostic → applyMigrations → evaluateDataLoss → createMigration. When
 * applyMigrations applied something (a fresh database, or one behind the migrations folder),
 * devDiagnostic cached the schema of fewer migrations than evaluateDataLoss asks for. So after such an
 * applyMigrations we diagnose the history once more, which caches the schema of the now fully
 * applied list, before the next evaluateDataLoss or createMigration.
 */
let migrationSchemaCacheStale = false;

async function callEngine(engine, method, params) {
  if ((method === "evaluateDataLoss" || method === "createMigration") && migrationSchemaCacheStale) {
    await warmMigrationSchemaCache(engine, params);
  }
  let result;
  if (renamedMethods[method]) result = await renamedMethods[method](engine, params);
  else if (method !== "free" && typeof engine[method] === "function") {
    result = await engine[method](params); // called on the engine: wasm-bindgen needs `this`
  } else throw new UserFacingError(`The offline (WASM) schema engine has no method ${method}.`);

  if (method === "applyMigrations" && result?.appliedMigrationNames?.length > 0) migrationSchemaCacheStale = true;
  if (method === "devDiagnostic" || (method === "diagnoseMigrationHistory" && params?.optInToShadowDatabase)) {
    migrationSchemaCacheStale = false;
  }
  return result;
}

/** Its errors are the request's: evaluateDataLoss would fail the same way, less clearly. */
async function warmMigrationSchemaCache(engine, params) {
  await engine.diagnoseMigrationHistory({
    migrationsList: params?.migrationsList,
    optInToShadowDatabase: true,
    filters: params?.filters,
  });
  migrationSchemaCacheStale = false;
}

// Not in the WASM engine: done with pg directly.
async function createDatabaseMethod(params, args) {
  const config =
    params?.datasource?.tag === "ConnectionString" ? parseDatabaseUrl(params.datasource.url) : datasourceConfig(args);
  return { databaseName: await createDatabase(config) };
}

async function handleRequest(request, args) {
  const { id, method, params } = request;
  try {
    let result;
    if (method === "createDatabase") {
      // Needs no engine (and the database may not exist yet).
      result = await createDatabaseMethod(params, args);
    } else {
      result = await callEngine(await getEngine(args), method, params);
    }
    await dropLeftoverShadowDatabases();
    send({ id, result: result ?? null });
  } catch (error) {
    await dropLeftoverShadowDatabases();
    send({ id, error: toRpcError(error) });
  }
}

async function dropLeftoverShadowDatabases() {
  try {
    await adapterFactory?.dropLeftoverShadowDatabases();
  } catch (error) {
    writeLog("WARN", `Could not drop a temporary shadow database: ${error?.message ?? error}`);
  }
}

/** The error shape the CLI understands: data.message (+ data.error_code), or data.is_panic. */
function toRpcError(error) {
  const panic = takePanicMessage();
  if (panic || error?.name === "RuntimeError") {
    const message = panic || error?.message || String(error);
    writeLog("ERROR", message);
    return { code: 4466, message, data: { is_panic: true, message, backtrace: error?.stack ?? null } };
  }
  // Drop the engine's span trace ("   0: sql_schema_connector::…"): Rust internals, not the user's business.
  let message = (error?.message ?? String(error)).split(/\n\s+0: /)[0];
  // A JS exception inside the adapter reaches us as "External error id#N": show what it said.
  message = message.replace(/External error id#(\d+)/, (text, id) => {
    const jsError = adapterErrorRegistry?.consumeError(Number(id))?.error;
    return jsError ? (jsError.message ?? String(jsError)) : text;
  });
  const errorCode = error instanceof UserFacingError ? error.errorCode : error?.code;
  return {
    code: 4466,
    message: "An error happened. Check the data field for details.",
    data: {
      is_panic: false,
      message,
      ...(typeof errorCode === "string" && /^P\d{4}$/.test(errorCode) ? { error_code: errorCode } : {}),
      meta: error?.meta ?? null,
    },
  };
}

async function serve(args) {
  // One request at a time, in order, as the native engine does.
  let queue = Promise.resolve();
  let inFlight; // id of the request being handled
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      writeLog("ERROR", `Could not parse the request: ${line.slice(0, 200)}`);
      return;
    }
    if (message.method === undefined) {
      // the CLI's answer to one of our requests
      pendingOwnRequests.get(message.id)?.(message.result);
      pendingOwnRequests.delete(message.id);
      return;
    }
    queue = queue.then(async () => {
      inFlight = message.id;
      await handleRequest(message, args);
      inFlight = undefined;
    });
  });
  // The CLI ends stdin when it is done (and kills us right after).
  lines.on("close", () => queue.then(() => process.exit(0)));

  // Last resort: the CLI may exit 0 without a word if we die before replying, so answer first.
  const die = (error) => {
    const message = `The schema engine crashed: ${error?.stack ?? error}`;
    writeLog("ERROR", message);
    if (inFlight !== undefined) send({ id: inFlight, error: toRpcError(new Error(message)) });
    process.exit(1);
  };
  process.on("uncaughtException", die);
  process.on("unhandledRejection", die);
}

// ---- main --------------------------------------------------------------------------------------

const args = parseArgs(process.argv.slice(2));
if (args.cliCommand === "--version") {
  const { version } = JSON.parse(
    readFileSync(new URL("package.json", import.meta.resolve("@prisma/schema-engine-wasm")), "utf8"),
  );
  process.stdout.write(`schema-engine-wasm ${version} (offline wrapper, prisma/engine)\n`);
} else if (args.cliCommand) {
  process.exitCode = await runCliCommand(args);
} else {
  await serve(args);
}
