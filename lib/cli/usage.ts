// The usage text, made from the command table: `--help`, `<noun> --help`, `<noun> <verb> --help`, and the
// text printed with a usage error. The README's CLI section holds the whole text (a unit test keeps it so).
import type { CliCommand, CliFlag } from "@/lib/cli/command-table";

const PROGRAM = "npm run cli --";
/** The column the summaries start at; a longer call goes on a line of its own. */
const SUMMARY_COLUMN = 35;
/** A call longer than this continues on the next line, under its first flag. */
const CALL_WIDTH = 110;
const FOOTER = `
  --json   print one JSON object on stdout
  --help   this text; <command> --help for one command, e.g. partner --help
`;

export function commandName(command: CliCommand): string {
  return command.verb ? `${command.noun} ${command.verb}` : command.noun;
}

function flagText(flag: CliFlag): string {
  const text = flag.value ? `--${flag.name} ${flag.value}` : `--${flag.name}`;
  if (flag.required) return text;
  return flag.multiple ? `[${text}]...` : `[${text}]`;
}

function callParts(command: CliCommand): string[] {
  const args = (command.args ?? []).map((a) => `<${a.name}>`);
  const flags = command.synopsis !== undefined ? [command.synopsis] : (command.flags ?? []).map(flagText);
  return [`${commandName(command)}${args.map((a) => ` ${a}`).join("")}`, ...flags].filter(Boolean);
}

/** The call, e.g. `key rotate <keyId> [--overlap-hours <h>]`. */
export function commandCall(command: CliCommand): string {
  return callParts(command).join(" ");
}

/** The call as printed: "  " first, wrapped at CALL_WIDTH. */
function wrappedCall(command: CliCommand): string {
  const [head = "", ...flags] = callParts(command);
  const lines = [`  ${head}`];
  const indent = " ".repeat(3 + commandName(command).length);
  for (const flag of flags) {
    const last = lines[lines.length - 1]!;
    if (last.length + 1 + flag.length > CALL_WIDTH && last.trim() !== head) lines.push(`${indent}${flag}`);
    else lines[lines.length - 1] = `${last} ${flag}`;
  }
  return lines.join("\n");
}

function commandLines(command: CliCommand): string {
  const call = wrappedCall(command);
  const indent = " ".repeat(SUMMARY_COLUMN);
  const [first = "", ...rest] = command.summary;
  const head =
    call.length < SUMMARY_COLUMN - 1 ? `${call.padEnd(SUMMARY_COLUMN)}${first}` : `${call}\n${indent}${first}`;
  return [head, ...rest.map((line) => `${indent}${line}`)].join("\n");
}

function nounsOf(commands: readonly CliCommand[]): string[] {
  return [...new Set(commands.map((c) => c.noun))];
}

/** Every command, a paragraph per noun. */
export function fullUsage(commands: readonly CliCommand[]): string {
  const groups = nounsOf(commands).map((noun) =>
    commands
      .filter((c) => c.noun === noun)
      .map(commandLines)
      .join("\n"),
  );
  return `usage: ${PROGRAM} <command> [options] [--json]\n\n${groups.join("\n\n")}\n${FOOTER}`;
}

/** One noun's commands. */
export function nounUsage(commands: readonly CliCommand[], noun: string): string {
  const mine = commands.filter((c) => c.noun === noun);
  const call = mine.some((c) => c.verb) ? `${noun} <command>` : noun;
  return `usage: ${PROGRAM} ${call} [options] [--json]\n\n${mine.map(commandLines).join("\n")}\n${FOOTER}`;
}

/** One command. */
export function commandUsage(command: CliCommand): string {
  return `usage: ${PROGRAM} ${commandCall(command)} [--json]\n\n${commandLines(command)}\n${FOOTER}`;
}
