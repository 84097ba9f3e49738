// For integration test files: points this process's database client at the test database and gives the
// server's address.
import { inject } from "vitest";
import { setEnv } from "@/lib/env";

export function connectTestEnvironment(): { baseUrl: string; databaseUrl: string } {
  const databaseUrl = inject("databaseUrl");
  setEnv({ DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", ...inject("testSecrets") });
  return { baseUrl: inject("baseUrl"), databaseUrl };
}
