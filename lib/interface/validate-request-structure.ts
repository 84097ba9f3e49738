// Validation's first stage, the structure: zod's issues against TransferRequestSchema turned into FieldIssues
// (MISSING_INFO or SPEC_MISMATCH) with messages that follow a field path and never quote the input.
import * as z from "zod";
import { formatPath, type JsonProblem } from "@/lib/text-safety";
import type { FieldIssue } from "@/lib/interface/validate-request";
import { TransferRequestSchema, type ErrorType } from "@/lib/interface/wire";

type PathSegment = PropertyKey;

export function structuralIssues(
  zodIssues: readonly z.core.$ZodIssue[],
  body: unknown,
  unstorable: readonly JsonProblem[],
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const add = (segments: readonly PathSegment[], type: ErrorType, message: string) => {
    const path = formatPath(segments);
    // A value that fails several checks (say, length and pattern) is reported once, by its first check.
    if (seen.has(path)) return;
    seen.add(path);
    issues.push({ path, type, message });
  };

  // First, so that a NUL in a string that is also too long is reported as the NUL.
  for (const problem of unstorable) add(problem.path, "SPEC_MISMATCH", problem.message);
  for (const issue of zodIssues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add([...issue.path, key], "SPEC_MISMATCH", "is not an allowed field");
      continue;
    }
    if (issue.path.length === 0) {
      add([], "SPEC_MISMATCH", "must be a JSON object");
      continue;
    }
    // zod reports an absent key and an explicit null as a failed type (or, for an enum, a failed
    // option): only the input itself tells them apart from a wrong value.
    const found = lookup(body, issue.path);
    if (!found.present || found.value === undefined) {
      add(issue.path, "MISSING_INFO", "is required");
    } else if (found.value === null) {
      // null says "I have no value": for a required key that is missing information. A key that may be
      // left out altogether (metadata.retryCount) is not required, so null there is just the wrong type.
      if (isOptionalKey(issue.path)) {
        add(issue.path, "SPEC_MISMATCH", `must be ${expectedAt(issue.path)} when present`);
      } else {
        add(issue.path, "MISSING_INFO", "must not be null");
      }
    } else if (issue.code === "invalid_type") {
      add(issue.path, "SPEC_MISMATCH", `must be ${expectedAt(issue.path, issue.expected)}`);
    } else {
      // Lengths, patterns, enums, formats, ranges: the message was written by ruleMessage or by wire.ts.
      add(issue.path, "SPEC_MISMATCH", issue.message);
    }
  }
  return issues;
}

/** Messages for the checks that carry no message of their own in wire.ts. They never quote the input. */
export function ruleMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${typeName(issue.expected)}`;
    case "too_small":
      if (issue.origin === "string") {
        if (issue.exact) return `must be exactly ${issue.minimum} characters`;
        return issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
      }
      if (issue.origin === "array") return `must have at least ${issue.minimum} items`;
      return `must be at least ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string") {
        if (issue.exact) return `must be exactly ${issue.maximum} characters`;
        return `must be at most ${issue.maximum} characters`;
      }
      if (issue.origin === "array") return `must have at most ${issue.maximum} items`;
      if (issue.origin === "int") return "must be a safe integer";
      return `must be at most ${issue.maximum}`;
    case "invalid_format":
      switch (issue.format) {
        case "email":
          return "must be a valid email address";
        case "url":
          return "must be an http or https URL";
        case "date":
          return "must be a real calendar date written YYYY-MM-DD";
        case "datetime":
          return "must be an RFC 3339 date-time with seconds and a time-zone offset, e.g. 2024-05-01T14:30:00-04:00";
        default:
          return "has an invalid format";
      }
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => String(v)).join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return "is not valid";
  }
}

function typeName(expected: string): string {
  switch (expected) {
    case "int":
      return "an integer";
    case "number":
      return "a number";
    case "string":
      return "a string";
    case "boolean":
      return "a boolean";
    case "object":
      return "a JSON object";
    case "array":
      return "an array";
    default:
      return `of type ${expected}`;
  }
}

/** The value at `path` in `root`, and whether the key exists at all. */
function lookup(root: unknown, path: readonly PathSegment[]): { present: boolean; value: unknown } {
  let current: unknown = root;
  for (const segment of path) {
    if (typeof segment === "number" && Array.isArray(current)) {
      if (segment < 0 || segment >= current.length) return { present: false, value: undefined };
      current = current[segment];
    } else if (typeof segment === "string" && isPlainObject(current)) {
      if (!Object.hasOwn(current, segment)) return { present: false, value: undefined };
      current = current[segment];
    } else {
      return { present: false, value: undefined };
    }
  }
  return { present: true, value: current };
}

/** The schema of the field at `path` in TransferRequestSchema (undefined for keys it does not define). */
function fieldSchemaAt(path: readonly PathSegment[]): z.ZodType | undefined {
  let schema: z.ZodType | undefined = TransferRequestSchema;
  for (const segment of path) {
    if (schema === undefined) return undefined;
    schema = unwrap(schema);
    if (schema instanceof z.ZodObject && typeof segment === "string") {
      schema = (schema.shape as Record<string, z.ZodType | undefined>)[segment];
    } else if (schema instanceof z.ZodArray && typeof segment === "number") {
      schema = schema.element as z.ZodType;
    } else {
      return undefined;
    }
  }
  return schema;
}

/** Whether the key at `path` may be left out (z.optional), as opposed to being required. */
function isOptionalKey(path: readonly PathSegment[]): boolean {
  return fieldSchemaAt(path) instanceof z.ZodOptional;
}

/** What the field at `path` expects, in words ("an integer", "one of M, F, U"), from its schema. */
function expectedAt(path: readonly PathSegment[], zodExpected?: string): string {
  const schema = fieldSchemaAt(path);
  const inner = schema === undefined ? undefined : unwrap(schema);
  // zod reports "number" for a non-number sent to an integer field; the schema knows better.
  if (inner instanceof z.ZodNumber) return inner.isInt ? "an integer" : "a number";
  if (inner instanceof z.ZodString) return "a string";
  if (inner instanceof z.ZodBoolean) return "a boolean";
  if (inner instanceof z.ZodEnum) return `one of ${inner.options.join(", ")}`;
  if (inner instanceof z.ZodObject) return "a JSON object";
  if (inner instanceof z.ZodArray) return "an array";
  return zodExpected === undefined ? "a valid value" : typeName(zodExpected);
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodNullable || current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
  return current;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
