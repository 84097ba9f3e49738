// A real PostgreSQL, a migrated database and the production server for the browser tests. Their
// addresses reach the test workers through the environment.
import { createMigratedDatabase, startTestPostgres } from "../tests/support/database";
import { startTestServer, TEST_AUTH_SECRET } from "../tests/support/server";

export default async function globalSetup() {
  const postgres = await startTestPostgres();
  const databaseUrl = await createMigratedDatabase(postgres.adminUrl, "rx_e2e");
  const server = await startTestServer({ databaseUrl });
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATABASE_URL = databaseUrl;
  process.env.E2E_AUTH_SECRET = TEST_AUTH_SECRET;
  return async () => {
    await server.stop();
    await postgres.stop();
  };
}
