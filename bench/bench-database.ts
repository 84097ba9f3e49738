// A bench script's own database on an embedded PostgreSQL (or DATABASE_URL's server): migrated, the job queue
// installed, this process set up to write to it with the run's keys (as bench/run.ts is), and a sender.
import { installJobQueue } from "@/lib/callbacks/job-queue-schema";
import { disconnectDb } from "@/lib/db/prisma";
import { createPartner, type CreatedPartner } from "@/lib/partners/create-partner";
import { setBenchEnv } from "./support";
import { createMigratedDatabase, startTestPostgres, type TestPostgres } from "@/tests/support/database";

export type BenchDatabase = { postgres: TestPostgres; databaseUrl: string; partner: CreatedPartner };

/** Stop it with `postgres.stop()`. */
export async function startBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const postgres = await startTestPostgres();
  try {
    const databaseUrl = await createMigratedDatabase(postgres.adminUrl, prefix);
    await installJobQueue(databaseUrl);
    setBenchEnv(databaseUrl);
    const partner = await createPartner({ name: "Bench Sender", callbackUrl: "http://127.0.0.1:9/unused", npis: [] });
    await disconnectDb();
    return { postgres, databaseUrl, partner };
  } catch (err) {
    await postgres.stop();
    throw err;
  }
}
