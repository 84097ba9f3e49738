// One PostgreSQL (embedded, or the server of DATABASE_URL), one migrated database and one production
// server for the whole integration run.
import type { TestProject } from "vitest/node";
import { createMigratedDatabase, startTestPostgres } from "@/tests/support/database";
import { startTestServer, TEST_AUTH_SECRET, TEST_SECRETS, type TestSecrets } from "@/tests/support/server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    adminDatabaseUrl: string;
    authSecret: string;
    /** AUTH_SECRET, DATA_ENCRYPTION_KEY and AUDIT_HMAC_KEY of the shared server. */
    testSecrets: TestSecrets;
  }
}

export default async function setup(project: TestProject) {
  const postgres = await startTestPostgres();
  const databaseUrl = await createMigratedDatabase(postgres.adminUrl);
  const server = await startTestServer({ databaseUrl });
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", databaseUrl);
  project.provide("adminDatabaseUrl", postgres.adminUrl);
  project.provide("authSecret", TEST_AUTH_SECRET);
  project.provide("testSecrets", TEST_SECRETS);
  return async () => {
    await server.stop();
    await postgres.stop();
  };
}
