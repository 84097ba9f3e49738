// Flags into the API's own input schemas: the command line says the same as the admin API and forms about the
// same value, with the flag named ("--overlap-hours: Overlap must be at most 2160 hours (90 days)"). Parsed
// before the command touches the database, so a refused value changes nothing.
import type * as z from "zod";
import type { FlagValues } from "@/lib/cli/command-table";
import { DomainError } from "@/lib/errors";

/** A schema field's flag, optionally with a conversion of the flag's text (throw an Error to refuse it). */
export type FlagSource = string | { flag: string; from: (text: string) => unknown };

const flagOf = (source: FlagSource) => (typeof source === "string" ? source : source.flag);

/**
 * Builds the schema's input from the flags (`base` first, the flags given over it) and parses it. A refusal
 * is invalid_input naming each flag and, for a repeated flag, the value at fault.
 */
export function parseFlags<S extends z.ZodType<unknown, Record<string, unknown>>>(
  schema: S,
  values: FlagValues,
  fields: { [K in keyof z.input<S>]?: FlagSource },
  base: Partial<z.input<S>> = {},
): z.output<S> {
  const input: Record<string, unknown> = { ...base };
  const sources = Object.entries(fields) as [string, FlagSource][];
  for (const [field, source] of sources) {
    const value = values[flagOf(source)];
    if (value === undefined) continue;
    if (typeof source === "string" || typeof value !== "string") {
      input[field] = value;
      continue;
    }
    try {
      input[field] = source.from(value);
    } catch (err) {
      throw new DomainError("invalid_input", `--${source.flag}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map((issue) => {
    const [field, index] = issue.path;
    const source = sources.find(([name]) => name === field)?.[1];
    if (!source) return issue.message;
    const given = values[flagOf(source)];
    const which = typeof index === "number" && Array.isArray(given) ? ` ${given[index]}` : "";
    return `--${flagOf(source)}${which}: ${issue.message}`;
  });
  throw new DomainError("invalid_input", messages.join("; "));
}

/** Text that must be a whole number (the schema then checks its bounds). */
export function wholeNumber(text: string): number {
  if (!/^\s*[+-]?\d+\s*$/.test(text)) throw new Error("must be a whole number");
  return Number(text);
}
