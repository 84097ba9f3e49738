// The committed migrations must produce exactly what prisma/schema.prisma describes: a schema change
// without `prisma migrate dev --name …` (or a hand-edited migration) fails here.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, dropDatabase, runPrismaCli } from "@/lib/db/migrate";
import { startTestPostgres, type TestPostgres } from "@/tests/support/database";

describe("prisma/migrations", () => {
  let postgres: TestPostgres;
  const scratch = `rx_drift_${randomBytes(4).toString("hex")}`;
  let scratchUrl: string;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    // `migrate diff --from-migrations` replays the migrations in a temporary shadow database, which
    // the engine creates on the server of DATABASE_URL; the database itself stays untouched.
    scratchUrl = await createDatabase(postgres.adminUrl, scratch);
  });

  afterAll(async () => {
    if (postgres) {
      await dropDatabase(postgres.adminUrl, scratch).catch(() => {});
      await postgres.stop();
    }
  });

  it("match prisma/schema.prisma (run `npx prisma migrate dev --name <change>` after a schema change)", async () => {
    const { code, output } = await runPrismaCli(
      [
        "migrate",
        "diff",
        "--from-migrations",
        "prisma/migrations",
        "--to-schema",
        "prisma/schema.prisma",
        "--exit-code",
      ],
      { DATABASE_URL: scratchUrl },
    );
    // 0: no difference; 2: the schema has changes no migration holds (listed in the output).
    expect(code, output).toBe(0);
    expect(output).toContain("No difference detected");
  });
});
