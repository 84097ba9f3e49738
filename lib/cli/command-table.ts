// The shape of the CLI's command table: each entry says how it is called (its words, arguments and flags,
// from which the usage text and the flag parser are both made) and what it does. One file per noun holds
// its entries (lib/cli/<noun>.ts); lib/cli/commands.ts joins them.

/** Bad usage (unknown command or flag, a missing argument): exit code 2, with the usage that applies. */
export class CliUsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = "CliUsageError";
  }
}

/**
 * exitCode: non-zero when the command ran but found a problem (e.g. a broken audit chain). stream: output
 * too large to hold (a CSV export), written to stdout line by line instead of `human`.
 */
export type CliResult = { json: unknown; human: string; exitCode?: number; stream?: AsyncIterable<string> };

/** A flag with a value (`value` names it in the usage, e.g. "<url>") or, without `value`, a switch. */
export type CliFlag = {
  name: string;
  value?: string;
  /** Given more than once, each value counts (e.g. --npi). */
  multiple?: boolean;
  /** Checked before the command runs: absent or empty is a usage error. */
  required?: boolean;
};

/** A positional argument, e.g. { name: "partnerId" } shown as <partnerId>. */
export type CliArgument = { name: string };

/** The flags as given: text, repeated text, or a switch. */
export type FlagValues = Readonly<Record<string, string | string[] | boolean | undefined>>;

export type CliContext = {
  /** The positional arguments after the command's words, as many as the entry declares. */
  args: readonly string[];
  values: FlagValues;
  json: boolean;
};

export type CliCommand = {
  noun: string;
  /** Absent for a one-word command (backup, restore). */
  verb?: string;
  args?: readonly CliArgument[];
  flags?: readonly CliFlag[];
  /** The flags part of the usage line where the flags alone cannot say it (alternatives). */
  synopsis?: string;
  /** What it does, one or more lines of the usage text. */
  summary: readonly string[];
  /** false: the database is started without applying migrations (a restore applies the backup's own). */
  migrate?: boolean;
  /** false: no database, no keys: the command only talks to a running service (sender simulate). */
  database?: boolean;
  run(ctx: CliContext): Promise<CliResult>;
};

/** A flag's text, if given as text. */
export function textFlag(values: FlagValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

/** A switch's state. */
export function switchFlag(values: FlagValues, name: string): boolean {
  return values[name] === true;
}

/** A flag that this use of the command needs (when the table cannot say it: it depends on another flag). */
export function requiredFlag(values: FlagValues, name: string): string {
  const value = textFlag(values, name);
  if (value === undefined || value === "") throw new CliUsageError(`--${name} is required`);
  return value;
}

/** Streamed output held whole, for --json (one JSON object) or a short export. */
export async function joinLines(lines: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const line of lines) text += line;
  return text;
}
