// `npm run cli -- <command>`: the admin command line. With --json it prints exactly one JSON object on
// stdout (errors too, as {"error": {...}}) so scripts can rely on it; everything else goes to stderr.
import { once } from "node:events";
import { disconnectDb } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { CLI_COMMANDS } from "@/lib/cli/commands";
import { CliUsageError } from "@/lib/cli/command-table";
import { parseCommandLine, type ParsedCommandLine } from "@/lib/cli/parse-command-line";
import { commandUsage } from "@/lib/cli/usage";
import { checkKeysAgainstDatabase, ensureSecrets, KeyMismatchError, loadEnvOrExit, startDatabase } from "./runtime";

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const json = argv.includes("--json");
  const emit = (value: unknown, human: string) =>
    process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
  // Bad usage: the message and the usage that applies on stderr (and the error object on stdout with --json).
  const usageError = (err: CliUsageError, usage: string | undefined) => {
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: "usage", message: err.message } })}\n`);
    process.stderr.write(`error: ${err.message}\n${usage ? `\n${usage}` : ""}`);
    return 2;
  };

  // The command and its flags are checked against the table before anything starts.
  let parsed: ParsedCommandLine;
  try {
    parsed = parseCommandLine(argv, CLI_COMMANDS);
  } catch (err) {
    if (err instanceof CliUsageError) return usageError(err, err.usage);
    throw err;
  }
  if (parsed.kind === "help") {
    process.stdout.write(json ? `${JSON.stringify({ usage: parsed.text })}\n` : parsed.text);
    return 0;
  }
  const { command } = parsed;

  loadEnvOrExit();
  ensureSecrets((msg) => process.stderr.write(`${msg}\n`), { json });
  // A restore applies the schema itself, after checking its file: nothing is touched before that.
  const migrate = command.migrate !== false;
  const db = await startDatabase({ log: (msg) => process.stderr.write(`${msg}\n`), migrate });
  try {
    // The CLI writes what the server reads (sealed secrets, audit records): it must hold the same keys.
    // (A restore's target has no schema yet; the restored server and CLI check the keys at their start.)
    if (migrate) await checkKeysAgainstDatabase();
    const result = await command.run({ args: parsed.args, values: parsed.values, json: parsed.json });
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
    if (err instanceof CliUsageError) return usageError(err, err.usage ?? commandUsage(command));
    if (err instanceof DomainError) {
      emit({ error: { code: err.code, message: err.message } }, `error: ${err.message}`);
      return 1;
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
    if (process.argv.includes("--json"))
      process.stdout.write(`${JSON.stringify({ error: { code: "internal", message } })}\n`);
    process.stderr.write(`error: ${message}\n`);
    process.exit(1);
  },
);
