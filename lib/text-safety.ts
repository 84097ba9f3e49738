// The one rule for client text that is going to PostgreSQL: it must be valid Unicode without NUL.
// PostgreSQL's text and jsonb cannot hold U+0000 (22021 / 22P05), and a lone UTF-16 surrogate has no
// UTF-8 form (22P02 in jsonb), so either one would turn a sender's mistake into a 500. Every edge where
// client text enters (the /v1 validation, /oauth/token, the dashboard API, the CLI) asks this module,
// before the database. No server-only imports: the dashboard's forms use the zod check too.
import * as z from "zod";

export const NUL_PROBLEM = "contains a NUL character";
export const SURROGATE_PROBLEM = "is not valid Unicode (unpaired surrogate)";

// With the u flag a well-formed surrogate pair is one code point, so this matches only a lone half.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** Why `value` cannot be stored as text ("contains a NUL character"), or null when it can. */
export function textProblem(value: string): string | null {
  if (value.includes("\u0000")) return NUL_PROBLEM;
  if (LONE_SURROGATE.test(value)) return SURROGATE_PROBLEM;
  return null;
}

/** For zod string schemas: `z.string().check(safeTextCheck)` refuses what textProblem refuses. */
export const safeTextCheck = z.superRefine<string>((value, ctx) => {
  const problem = textProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem, input: value });
});

/**
 * How deep a parsed JSON value may nest. The transfer request itself is 4 levels deep; the limit is for
 * open objects such as metadata, where a sender's extra keys are stored as sent and a value nested
 * thousands deep would exhaust the stack of JSON.stringify and of PostgreSQL's jsonb parser.
 */
export const MAX_JSON_DEPTH = 32;

export type JsonProblem = { path: PropertyKey[]; message: string };

/**
 * Key names that JavaScript objects treat specially. An assignment of `__proto__` sets an object's prototype
 * instead of a key, so a copy (zod's, for one) would silently drop it; the three are refused by name, at any
 * depth, rather than stored in some places and lost in others.
 */
export const RESERVED_KEY_NAMES: readonly string[] = ["__proto__", "constructor", "prototype"];
export const RESERVED_KEY_PROBLEM = `is a reserved key name (${RESERVED_KEY_NAMES.join(", ")} are not accepted)`;

/**
 * Every string (object keys included) in a parsed JSON value that textProblem refuses, with its path, every
 * reserved key name, and every place the value nests deeper than `maxDepth`.
 */
export function findJsonProblems(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonProblem[] {
  const problems: JsonProblem[] = [];
  const visit = (current: unknown, path: PropertyKey[]): void => {
    if (typeof current === "string") {
      const problem = textProblem(current);
      if (problem) problems.push({ path, message: problem });
      return;
    }
    if (typeof current !== "object" || current === null) return;
    if (path.length >= maxDepth) {
      problems.push({ path, message: `is nested too deeply (more than ${maxDepth} levels)` });
      return;
    }
    if (Array.isArray(current)) {
      current.forEach((item, index) => visit(item, [...path, index]));
      return;
    }
    for (const [key, item] of Object.entries(current)) {
      const problem = textProblem(key);
      if (problem) problems.push({ path: [...path, key], message: `has a name that ${problem}` });
      else if (RESERVED_KEY_NAMES.includes(key)) problems.push({ path: [...path, key], message: RESERVED_KEY_PROBLEM });
      visit(item, [...path, key]);
    }
  };
  visit(value, []);
  return problems;
}

const PLAIN_KEY = /^[A-Za-z_$][\w$-]{0,63}$/;

/**
 * `patient.allergyDetails.allergies[2]`. A key the sender invented that does not look like a field name
 * (too long, odd characters, a NUL) is shown as `[?]` rather than echoed.
 */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (typeof segment === "string" && PLAIN_KEY.test(segment)) out += out ? `.${segment}` : segment;
    else out += "[?]";
  }
  return out;
}
