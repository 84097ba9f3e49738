// The command line against the table: which command, its arguments and its flags, each checked against what
// that command declares. Everything here happens before the database is started: a usage error (exit 2)
// touches nothing.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliUsageError, type CliCommand, type FlagValues } from "@/lib/cli/command-table";
import { commandName, commandUsage, fullUsage, nounUsage } from "@/lib/cli/usage";
import { findJsonProblems, textProblem } from "@/lib/text-safety";

export type ParsedCommandLine =
  | { kind: "help"; text: string }
  | { kind: "run"; command: CliCommand; args: string[]; values: FlagValues; json: boolean };

/** Flags every command takes. */
const GLOBAL_FLAGS = ["json", "help"];

/** The leading words (noun, verb), skipping the global switches wherever they are. */
function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (const token of argv) {
    if (GLOBAL_FLAGS.some((name) => token === `--${name}`)) continue;
    if (token.startsWith("-") || words.length === 2) break;
    words.push(token);
  }
  return words;
}

function findCommand(table: readonly CliCommand[], words: string[], wantsHelp: boolean): CliCommand | { help: string } {
  const [noun = "", verb] = words;
  const mine = table.filter((c) => c.noun === noun);
  if (mine.length === 0) throw new CliUsageError(`unknown command: ${words.join(" ")}`, fullUsage(table));
  const single = mine.find((c) => c.verb === undefined);
  if (single) return single;
  if (verb === undefined) {
    if (wantsHelp) return { help: nounUsage(table, noun) };
    throw new CliUsageError(`${noun} needs a command: ${mine.map((c) => c.verb).join(", ")}`, nounUsage(table, noun));
  }
  const command = mine.find((c) => c.verb === verb);
  if (!command) throw new CliUsageError(`unknown command: ${noun} ${verb}`, nounUsage(table, noun));
  return command;
}

/** A flag the command does not take is named, with the command's usage (not parseArgs' generic message). */
function refuseUnknownFlags(argv: readonly string[], command: CliCommand): void {
  const flags = new Map((command.flags ?? []).map((f) => [f.name, f]));
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") return;
    if (!token.startsWith("--")) continue;
    const name = token.slice(2).split("=")[0]!;
    const flag = flags.get(name);
    if (!flag && !GLOBAL_FLAGS.includes(name)) {
      throw new CliUsageError(`unknown option --${name} for ${commandName(command)}`, commandUsage(command));
    }
    if (flag?.value && !token.includes("=")) i++; // its value, whatever it looks like
  }
}

/** Arguments end up in PostgreSQL: text it cannot hold (lib/text-safety.ts) is a usage error, named. */
function refuseUnstorableArguments(args: readonly string[], values: FlagValues, usage: string): void {
  const problems: string[] = [];
  args.forEach((arg, i) => {
    const problem = textProblem(arg);
    if (problem) problems.push(`argument ${i + 1} ${problem}`);
  });
  for (const p of findJsonProblems(values)) problems.push(`--${String(p.path[0])} ${p.message}`);
  if (problems.length > 0) throw new CliUsageError(problems.join("; "), usage);
}

export function parseCommandLine(argv: readonly string[], table: readonly CliCommand[]): ParsedCommandLine {
  const wantsHelp = argv.includes("--help");
  const words = commandWords(argv);
  if (words.length === 0 || words[0] === "help") {
    const noun = words[1];
    return {
      kind: "help",
      text: noun && table.some((c) => c.noun === noun) ? nounUsage(table, noun) : fullUsage(table),
    };
  }
  const found = findCommand(table, words, wantsHelp);
  if ("help" in found) return { kind: "help", text: found.help };
  const command = found;
  const usage = commandUsage(command);
  if (wantsHelp) return { kind: "help", text: usage };

  refuseUnknownFlags(argv, command);
  const options: NonNullable<ParseArgsConfig["options"]> = { json: { type: "boolean" }, help: { type: "boolean" } };
  for (const f of command.flags ?? [])
    options[f.name] = { type: f.value ? "string" : "boolean", multiple: f.multiple ?? false };
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliUsageError(err instanceof Error ? err.message : String(err), usage);
  }
  const values = parsed.values as FlagValues;
  refuseUnstorableArguments(parsed.positionals, values, usage);

  const args = parsed.positionals.slice(command.verb ? 2 : 1);
  const declared = command.args ?? [];
  const missing = declared[args.length];
  if (missing) throw new CliUsageError(`${missing.name} is required`, usage);
  if (args.length > declared.length) throw new CliUsageError(`unexpected argument: ${args[declared.length]}`, usage);
  for (const flag of command.flags ?? []) {
    const value = values[flag.name];
    if (flag.required && (value === undefined || value === ""))
      throw new CliUsageError(`--${flag.name} is required`, usage);
  }
  return { kind: "run", command, args, values, json: values.json === true };
}
