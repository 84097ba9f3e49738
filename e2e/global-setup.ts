// A real PostgreSQL, a migrated database and the production server for the browser tests. Their
// addresses reach the test workers through the environment.
import { createMigratedDatabase, startTestPostgres } from "../tests/support/database";
import { startTestServer, TEST_AUTH_SECRET, TEST_SECRETS } from "../tests/support/server";

/**
 * The dashboard's automatic logoff, short enough for the idle-logoff test to watch it happen (24 s), long
 * enough that the other tests, which act every few seconds, never meet it.
 */
export const E2E_SESSION_IDLE_MINUTES = "0.4";

export default async function globalSetup() {
  const postgres = await startTestPostgres();
  const databaseUrl = await createMigratedDatabase(postgres.adminUrl, "rx_e2e");
  const server = await startTestServer({ databaseUrl, env: { SESSION_IDLE_MINUTES: E2E_SESSION_IDLE_MINUTES } });
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATABASE_URL = databaseUrl;
  process.env.E2E_AUTH_SECRET = TEST_AUTH_SECRET;
  // The workers write sealed secrets and audit records to the server's database: they need its keys.
  process.env.E2E_DATA_ENCRYPTION_KEY = TEST_SECRETS.DATA_ENCRYPTION_KEY;
  process.env.E2E_AUDIT_HMAC_KEY = TEST_SECRETS.AUDIT_HMAC_KEY;
  process.env.E2E_SESSION_IDLE_MINUTES = E2E_SESSION_IDLE_MINUTES;
  return async () => {
    await server.stop();
    await postgres.stop();
  };
}
