// Domain errors with a stable code: the edges (HTTP, CLI) map them to their own answer shapes.
// "refused": well-formed and allowed, but a clinical or legal rule forbids it (422 over HTTP).
import type * as z from "zod";

export type DomainErrorCode = "not_found" | "invalid_input" | "conflict" | "forbidden" | "refused";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/**
 * A domain operation's input parsed with its zod schema (the one the edges validate with), for the callers
 * that reach it past an edge (the CLI, the seed): a bad value is invalid_input naming the field.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new DomainError(
    "invalid_input",
    parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "),
  );
}
