// `npm run db:deploy`: apply the committed migrations to DATABASE_URL, creating the database if missing
// (without DATABASE_URL: to the embedded database in DATA_DIR). Run it as the database's owner.
//
// `npm run -s db:deploy -- --print-grants --role rx_app` also prints, on stdout, the GRANT statements that
// give the application role least privilege (lib/db/grants.ts); everything else goes to stderr.
import { parseArgs } from "node:util";
import { buildGrantStatements } from "@/lib/db/grants";
import { findDatabaseEncodingProblem } from "@/lib/db/database-encoding";
import { disconnectDb } from "@/lib/db/prisma";
import { checkKeysAgainstDatabase, ensureSecrets, loadEnvOrExit, migrateDatabase, startDatabase } from "./runtime";

class EncodingRefused extends Error {}

/** Refuses a database that is not UTF8, before anything is written to it. */
async function requireUtf8(databaseUrl: string): Promise<void> {
  const problem = await findDatabaseEncodingProblem(databaseUrl);
  if (problem) throw new EncodingRefused(problem);
}

let options: { "print-grants"?: boolean; role?: string };
try {
  options = parseArgs({ options: { "print-grants": { type: "boolean" }, role: { type: "string" } } }).values;
  if (options["print-grants"] && !options.role)
    throw new Error("--print-grants needs --role <name> (the application's role, e.g. rx_app)");
  if (options.role && !options["print-grants"]) throw new Error("--role goes with --print-grants");
} catch (err) {
  process.stderr.write(
    `usage: npm run db:deploy [-- --print-grants --role <app role>]\n${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(2);
}

loadEnvOrExit();
const printing = options["print-grants"] === true;
const say = (msg: string) => (printing ? process.stderr : process.stdout).write(`${msg}\n`);
// The deployment's keys, as every other process has them: a deploy with other keys than the data's fails
// here, before a server, worker or CLI writes under them.
ensureSecrets(say);
startDatabase({ log: say, migrate: false })
  .then(async (db) => {
    try {
      await requireUtf8(db.databaseUrl);
      await migrateDatabase(db.databaseUrl);
      // A database the migrations created takes the server's default encoding.
      await requireUtf8(db.databaseUrl);
      say(`migrations applied (${db.embedded ? "embedded database" : "DATABASE_URL"})`);
      await checkKeysAgainstDatabase().finally(() => disconnectDb());
      if (printing) process.stdout.write(await buildGrantStatements(db.databaseUrl, options.role!));
    } finally {
      await db.stop();
    }
  })
  .catch((err: unknown) => {
    const what =
      err instanceof EncodingRefused ? "db:deploy refused" : `${printing ? "db:deploy" : "migration"} failed`;
    process.stderr.write(`${what}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
