// For integration test files: points this process's database client at the test database and gives the
// server's address.
import { inject } from "vitest";
import { setEnv } from "@/lib/env";

export function connectTestEnvironment(): { baseUrl: string; databaseUrl: string } {
  const databaseUrl = inject("databaseUrl");
  // Test receivers are plain http on 127.0.0.1, as the test server allows too (tests/support/server.ts).
  setEnv({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
    ...inject("testSecrets"),
    CALLBACK_ALLOW_INSECURE_HTTP: "true",
  });
  return { baseUrl: inject("baseUrl"), databaseUrl };
}
