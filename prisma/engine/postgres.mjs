// PostgreSQL side of the offline schema engine: connection URLs, the driver-adapter factory the
// WASM engine runs over (@prisma/adapter-pg with its four defects worked around), and the two
// things the WASM engine cannot do itself (check a connection, create a database).

import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { ColumnTypeEnum } from "@prisma/driver-adapter-utils";
import pg from "pg";

const PG_CHAR_OID = 18; // PostgreSQL's internal one-byte "char" type (pg_constraint.contype, …)
const PG_TEXT_OID = 25;

/** An error the CLI shows as is, with its Prisma error code (P1001, …) when there is one. */
export class UserFacingError extends Error {
  constructor(message, errorCode) {
    super(message);
    this.errorCode = errorCode;
  }
}

/**
 * Defect 3: given `{connectionString}`, pg lets the connection string override `database`, so
 * adapter-pg's `{...config, database: shadow}` would still point at the main database. We always
 * hand pg an explicit `{host, port, user, password, database}` config.
 */
export function parseDatabaseUrl(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserFacingError("The datasource URL is not a valid URL.", "P1013");
  }
  if (parsed.protocol !== "postgresql:" && parsed.protocol !== "postgres:") {
    throw new UserFacingError(
      `This schema engine only supports postgresql:// URLs (got ${parsed.protocol}//).`,
      "P1013",
    );
  }
  const params = parsed.searchParams;
  // The WASM engine only knows the `public` schema: refuse rather than migrate the wrong one.
  const schema = params.get("schema");
  if (schema !== null && schema !== "public") {
    throw new UserFacingError(
      `The datasource URL asks for schema "${schema}", but this offline schema engine (WASM) only ` +
        `manages the "public" schema. Remove ?schema= from the URL or set it to public.`,
    );
  }
  const config = {
    host: params.get("host") ?? (decodeURIComponent(parsed.hostname.replace(/^\[|\]$/g, "")) || "localhost"),
    port: parsed.port ? Number(parsed.port) : 5432,
    user: decodeURIComponent(parsed.username) || "postgres",
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "postgres",
  };
  const ssl = sslFromMode(params.get("sslmode"));
  if (ssl !== undefined) config.ssl = ssl;
  const connectTimeout = params.get("connect_timeout");
  if (connectTimeout) config.connectionTimeoutMillis = Number(connectTimeout) * 1000;
  return config;
}

function sslFromMode(mode) {
  switch (mode) {
    case null:
    case "disable":
    case "prefer": // pg cannot fall back from TLS to plain: treat as the common local case
      return undefined;
    case "no-verify":
    case "require":
      return { rejectUnauthorized: false };
    case "verify-ca":
    case "verify-full":
      return { rejectUnauthorized: true };
    default:
      throw new UserFacingError(`Unsupported sslmode "${mode}" in the datasource URL.`, "P1013");
  }
}

export const describeServer = (config) => `${config.host}:${config.port}`;

/**
 * Defect 1: adapter-pg cannot map OID 18 ("char") and fails every describe query of the engine.
 * This pg client relabels such columns as text before adapter-pg looks at them (the value is a
 * one-character string either way) and remembers which they were, keyed by the result's rows array,
 * which adapter-pg hands back unchanged; `reportCharColumns` then gives the engine its Character
 * type (plain text is not enough: PostgreSQL 18 makes the engine panic reading constraint_type).
 */
const charColumnsByRows = new WeakMap();

class CharAwareClient extends pg.Client {
  query(config, values, callback) {
    if (typeof values === "function") [values, callback] = [undefined, values];
    if (typeof config?.submit === "function") return super.query(config, values, callback);
    if (typeof callback === "function") {
      return super.query(config, values, (error, result) => callback(error, error ? result : relabelChar(result)));
    }
    return super.query(config, values).then(relabelChar);
  }
}

function relabelChar(result) {
  for (const one of Array.isArray(result) ? result : [result]) {
    const indexes = [];
    one?.fields?.forEach((field, i) => {
      if (field.dataTypeID === PG_CHAR_OID) {
        field.dataTypeID = PG_TEXT_OID;
        indexes.push(i);
      }
    });
    if (indexes.length > 0 && Array.isArray(one.rows)) charColumnsByRows.set(one.rows, indexes);
  }
  return result;
}

function reportCharColumns(resultSet) {
  for (const i of charColumnsByRows.get(resultSet.rows) ?? []) resultSet.columnTypes[i] = ColumnTypeEnum.Character;
  return resultSet;
}

/** Wraps an adapter-pg adapter (or transaction) with the fixes; everything else is delegated. */
function fixQueryable(inner) {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: async (query) => reportCharColumns(await inner.queryRaw(query)),
    executeRaw: (query) => inner.executeRaw(query),
  };
}

function fixAdapter(inner, dispose) {
  return {
    ...fixQueryable(inner),
    // Defect 2: adapter-pg splits the script on every ";" and spreads the pieces over pool
    // connections, which breaks `$$ … ; … $$` bodies (and session state such as SET). Like the
    // native engine we send it whole: without parameters pg sends it as one simple-protocol
    // message, on one connection, run as one implicit transaction (errors mapped by adapter-pg).
    executeScript: async (script) => {
      await inner.executeRaw({ sql: script, args: [], argTypes: [] });
    },
    startTransaction: async (isolationLevel) => {
      const tx = await inner.startTransaction(isolationLevel);
      return {
        ...fixQueryable(tx),
        options: tx.options,
        commit: () => tx.commit(),
        rollback: () => tx.rollback(),
        createSavepoint: (name) => tx.createSavepoint(name),
        rollbackToSavepoint: (name) => tx.rollbackToSavepoint(name),
        releaseSavepoint: (name) => tx.releaseSavepoint(name),
      };
    },
    getConnectionInfo: () => inner.getConnectionInfo(),
    dispose: dispose ?? (() => inner.dispose()),
  };
}

/** The factory handed to the WASM engine (after binding with driver-adapter-utils). */
export class FixedPgAdapterFactory {
  provider = "postgres";
  adapterName = "@prisma/adapter-pg";

  constructor(config, { shadowDatabaseUrl } = {}) {
    this.config = config;
    this.shadowDatabaseUrl = shadowDatabaseUrl;
    this.liveShadowDatabases = new Set(); // their dispose functions
  }

  async connect() {
    return fixAdapter(await new PrismaPg({ ...this.config, Client: CharAwareClient }).connect());
  }

  /**
   * A temporary database on the same server (the engine replays the migrations there).
   * Defect 4: adapter-pg drops it while its own pool still holds connections, so the DROP fails and
   * the database stays behind; we close the pool first, then DROP … WITH (FORCE).
   */
  async connectToShadowDb() {
    if (this.shadowDatabaseUrl) {
      throw new UserFacingError(
        "shadowDatabaseUrl is not supported by this offline schema engine: leave it unset, and a " +
          "temporary shadow database is created and dropped on the same server.",
      );
    }
    const name = `prisma_migrate_shadow_db_${randomUUID()}`;
    await runOnServer(this.config, `CREATE DATABASE "${name}"`);
    // An explicit config (defect 3), so `database` really selects the shadow database.
    const inner = await new PrismaPg({ ...this.config, database: name, Client: CharAwareClient }).connect();
    let disposed;
    const dispose = () => {
      disposed ??= (async () => {
        this.liveShadowDatabases.delete(dispose);
        await inner.dispose(); // ends the shadow pool
        await runOnServer(this.config, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      })();
      return disposed;
    };
    this.liveShadowDatabases.add(dispose);
    return fixAdapter(inner, dispose);
  }

  /**
   * When a migration fails in the shadow database, the engine answers without disposing of it (and
   * the CLI kills us right after the answer): called after every request, before the answer.
   */
  async dropLeftoverShadowDatabases() {
    await Promise.all([...this.liveShadowDatabases].map((dispose) => dispose()));
  }
}

/**
 * Runs one statement on the server, from the configured database or, when that one does not exist
 * (yet), from the `postgres` maintenance database.
 */
export async function runOnServer(config, sql) {
  let lastError;
  for (const database of [...new Set([config.database, "postgres", "template1"])]) {
    const client = new pg.Client({ ...config, database });
    client.on("error", () => {}); // a dropped connection surfaces through the awaited calls
    try {
      await client.connect();
    } catch (error) {
      lastError = error;
      await client.end().catch(() => {});
      if (error?.code === "3D000") continue; // that database does not exist: try the next
      throw toUserFacing(error, config);
    }
    try {
      return await client.query(sql);
    } finally {
      await client.end().catch(() => {});
    }
  }
  throw toUserFacing(lastError, config);
}

/** `cli can-connect-to-database`: connects to the configured database itself. */
export async function checkConnection(config) {
  const client = new pg.Client(config);
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    throw toUserFacing(error, config);
  } finally {
    await client.end().catch(() => {});
  }
}

/** `cli create-database` and the createDatabase RPC method. */
export async function createDatabase(config) {
  try {
    await runOnServer(
      { ...config, database: "postgres" },
      `CREATE DATABASE "${config.database.replaceAll('"', '""')}"`,
    );
  } catch (error) {
    if (error?.code !== "42P04") throw toUserFacing(error, config); // 42P04: it exists, fine
  }
  return config.database;
}

/** Translates pg's connection errors into Prisma's P1xxx errors, as the native engine reports them. */
export function toUserFacing(error, config) {
  if (error instanceof UserFacingError) return error;
  const server = describeServer(config);
  switch (error?.code) {
    case "3D000":
      return new UserFacingError(
        `Database \`${config.database}\` does not exist on the database server at \`${server}\`.`,
        "P1003",
      );
    case "28P01":
      return new UserFacingError(
        `Authentication failed against database server at \`${config.host}\`, the provided database ` +
          `credentials for \`${config.user}\` are not valid.\n\nPlease make sure to provide valid database ` +
          `credentials for the database server at \`${config.host}\`.`,
        "P1000",
      );
    case "28000":
      return new UserFacingError(
        `User \`${config.user}\` was denied access on the database \`${config.database}\``,
        "P1010",
      );
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "EAI_AGAIN":
      return new UserFacingError(
        `Can't reach database server at \`${server}\`\n\nPlease make sure your database server is running at \`${server}\`.`,
        "P1001",
      );
    case "ETIMEDOUT":
      return new UserFacingError(`Timed out trying to connect to the database server at \`${server}\`.`, "P1002");
    default:
      if (/timeout/i.test(error?.message ?? "")) {
        return new UserFacingError(`Timed out trying to connect to the database server at \`${server}\`.`, "P1002");
      }
      return new UserFacingError(error?.message ?? String(error));
  }
}
