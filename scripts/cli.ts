// `npm run cli -- <command>`: the admin command line. With --json it prints exactly one JSON object on
// stdout (errors too, as {"error": {...}}) so scripts can rely on it; everything else goes to stderr.
import { once } from "node:events";
import { parseArgs } from "node:util";
import { disconnectDb } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { runCliCommand, CLI_USAGE, CliUsageError } from "@/lib/cli/commands";
import { checkKeysAgainstDatabase, ensureSecrets, KeyMismatchError, loadEnvOrExit, startDatabase } from "./runtime";

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const json = argv.includes("--json");
  const emit = (value: unknown, human: string) => process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);

  if (argv.length === 0 || argv[0] === "help" || argv.includes("--help")) {
    process.stdout.write(CLI_USAGE);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean" },
        name: { type: "string" },
        "callback-url": { type: "string" },
        npi: { type: "string", multiple: true },
        partner: { type: "string" },
        email: { type: "string" },
        password: { type: "string" },
        role: { type: "string" },
        "expires-in-days": { type: "string" },
        "overlap-hours": { type: "string" },
        "header-name": { type: "string" },
        "header-value": { type: "string" },
        clear: { type: "boolean" },
        dea: { type: "string" },
        "clear-npis": { type: "boolean" },
        user: { type: "string" },
        action: { type: "string" },
        transfer: { type: "string" },
        from: { type: "string" },
        to: { type: "string" },
        order: { type: "string" },
        limit: { type: "string" },
        cursor: { type: "string" },
        license: { type: "string" },
        "extra-schedules": { type: "string" },
        "rx-expiry-months": { type: "string" },
        schedule: { type: "string" },
        outcome: { type: "string" },
        out: { type: "string" },
        head: { type: "string" },
        "head-id": { type: "string" },
        yes: { type: "boolean" },
        "pg-dump": { type: "boolean" },
      },
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    emit({ error: { code: "usage", message } }, `error: ${message}\n\n${CLI_USAGE}`);
    return 2;
  }

  loadEnvOrExit();
  ensureSecrets((msg) => process.stderr.write(`${msg}\n`));
  // A restore applies the schema itself, after checking its file: nothing is touched before that.
  const migrate = parsed.positionals[0] !== "restore";
  const db = await startDatabase({ log: (msg) => process.stderr.write(`${msg}\n`), migrate });
  try {
    // The CLI writes what the server reads (sealed secrets, audit records): it must hold the same keys.
    // (A restore's target has no schema yet; the restored server and CLI check the keys at their start.)
    if (migrate) await checkKeysAgainstDatabase();
    const result = await runCliCommand(parsed.positionals, parsed.values);
    if (result.stream && !json) {
      // A CSV export: written as it is read, so it never has to fit in memory.
      for await (const chunk of result.stream) {
        if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
      }
    } else emit(result.json, result.human);
    return result.exitCode ?? 0;
  } catch (err) {
    if (err instanceof KeyMismatchError) {
      emit({ error: { code: "key_mismatch", message: err.message } }, `error: ${err.message}`);
      return 1;
    }
    if (err instanceof CliUsageError || err instanceof DomainError) {
      const code = err instanceof DomainError ? err.code : "usage";
      emit({ error: { code, message: err.message } }, `error: ${err.message}`);
      return err instanceof CliUsageError ? 2 : 1;
    }
    throw err;
  } finally {
    await disconnectDb();
    await db.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify({ error: { code: "internal", message } })}\n`);
    process.stderr.write(`error: ${message}\n`);
    process.exit(1);
  },
);
