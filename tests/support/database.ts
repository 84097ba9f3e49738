// A PostgreSQL server for integration tests: the one DATABASE_URL points at when it is set (CI or a
// developer's own server), otherwise an embedded one in a fresh temporary directory.

import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../../lib/db/embedded-postgres";
import { createDatabase, databaseUrl, deployMigrations } from "../../lib/db/migrate";

export type TestPostgres = {
  /** URL of the server's `postgres` database: create test databases from here. */
  adminUrl: string;
  stop(): Promise<void>;
};

export async function startTestPostgres(): Promise<TestPostgres> {
  const external = process.env.DATABASE_URL;
  if (external) {
    return { adminUrl: databaseUrl(external, "postgres"), stop: async () => {} };
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "rx-test-pg-"));
  try {
    const server = await startEmbeddedPostgres({ dataDir, database: "postgres" });
    return {
      adminUrl: server.adminUrl,
      stop: async () => {
        await server.stop();
        await fs.rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** A fresh database named `<prefix>_<random>` with the committed migrations applied; returns its URL. */
export async function createMigratedDatabase(adminUrl: string, prefix = "rx_test"): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const url = await createDatabase(adminUrl, name);
  await deployMigrations(url);
  return url;
}
