// `npm run db:deploy`: apply the committed migrations to DATABASE_URL, creating the database if missing
// (without DATABASE_URL: to the embedded database in DATA_DIR).
import { loadEnvOrExit, startDatabase } from "./runtime";

loadEnvOrExit();
const say = (msg: string) => process.stdout.write(`${msg}\n`);
startDatabase({ log: say })
  .then(async (db) => {
    say(`migrations applied (${db.embedded ? "embedded database" : "DATABASE_URL"})`);
    await db.stop();
  })
  .catch((err: unknown) => {
    process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
