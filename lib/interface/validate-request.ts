// Validation of an incoming TransferRequest, classified into the interface's error types as docs/interface.md
// settles them:
//
//   key absent, or null where the field is not nullable            → MISSING_INFO
//   wrong JSON type, length, pattern, enum, date format, unknown
//   key, a body that is not a JSON object                           → SPEC_MISMATCH
//   well-formed but wrong value (check digits, unknown receiving
//   pharmacy, refills, dates out of order…)                         → INVALID_INFO
//   expired                                                          → RX_EXPIRED
//
// Structure is checked first (the zod schema in wire.ts), together with the one rule that applies to every
// string of the body whatever its schema, unknown keys and their names included: valid Unicode without
// NUL, nested at most MAX_JSON_DEPTH deep (lib/text-safety.ts; SPEC_MISMATCH), because the whole body is
// stored. Only a structurally valid request gets the semantic checks. Within each stage the most specific class wins: MISSING_INFO over SPEC_MISMATCH,
// RX_EXPIRED over INVALID_INFO. The description names every failing field by its full path and never
// quotes a value, because it is logged and may otherwise carry patient data.
//
// The two stages live in validate-request-structure.ts and validate-request-values.ts; this module runs them
// and writes the result.
import { findJsonProblems, formatPath, textProblem } from "@/lib/text-safety";
import { isPlainObject, ruleMessage, structuralIssues } from "@/lib/interface/validate-request-structure";
import { semanticIssues } from "@/lib/interface/validate-request-values";
import { TransferRequestSchema, type ErrorType, type TransferRequest } from "@/lib/interface/wire";

export { formatPath };

export type FieldIssue = { path: string; type: ErrorType; message: string };
export type ValidationContext = { storeNpis: ReadonlySet<string>; now: Date };
export type ValidationResult =
  { ok: true; request: TransferRequest } | { ok: false; type: ErrorType; description: string; issues: FieldIssue[] };

/** How many issues the description spells out before summarising the rest as "and N more". */
export const MAX_DESCRIBED_ISSUES = 20;

export function validateTransferRequest(body: unknown, ctx: ValidationContext): ValidationResult {
  const parsed = TransferRequestSchema.safeParse(body, { error: ruleMessage });
  const unstorable = findJsonProblems(body);
  if (!parsed.success || unstorable.length > 0) {
    const issues = structuralIssues(parsed.success ? [] : parsed.error.issues, body, unstorable);
    const type: ErrorType = issues.some((i) => i.type === "MISSING_INFO") ? "MISSING_INFO" : "SPEC_MISMATCH";
    return failure(type, issues);
  }
  const issues = semanticIssues(parsed.data, ctx);
  if (issues.length === 0) return { ok: true, request: parsed.data };
  const type: ErrorType = issues.some((i) => i.type === "RX_EXPIRED") ? "RX_EXPIRED" : "INVALID_INFO";
  return failure(type, issues);
}

/**
 * The request's metadata.requestID when it is a string, else "" (what an error response echoes). A
 * requestID with a NUL or a lone surrogate is not echoed either: strict JSON readers choke on it.
 */
export function readRequestId(body: unknown): string {
  if (!isPlainObject(body)) return "";
  const metadata = body.metadata;
  if (!isPlainObject(metadata)) return "";
  const requestID = metadata.requestID;
  return typeof requestID === "string" && textProblem(requestID) === null ? requestID : "";
}

// ---------------------------------------------------------------------------------------------------
// Result and description

const TYPE_PRECEDENCE: readonly ErrorType[] = ["MISSING_INFO", "SPEC_MISMATCH", "RX_EXPIRED", "INVALID_INFO"];

function failure(type: ErrorType, issues: FieldIssue[]): ValidationResult {
  // The issues that decide the type come first, so they survive the cap; otherwise schema order.
  const ordered = issues
    .map((issue, index) => ({ issue, index }))
    .sort((a, b) => rank(a.issue.type) - rank(b.issue.type) || a.index - b.index)
    .map(({ issue }) => issue);
  return { ok: false, type, description: describeIssues(ordered), issues: ordered };
}

function rank(type: ErrorType): number {
  const i = TYPE_PRECEDENCE.indexOf(type);
  return i === -1 ? TYPE_PRECEDENCE.length : i;
}

/** "a.b is required; c.d must not be null; … and N more" */
export function describeIssues(issues: readonly FieldIssue[]): string {
  const shown = issues.slice(0, MAX_DESCRIBED_ISSUES).map((i) => `${i.path || "request body"} ${i.message}`);
  const hidden = issues.length - shown.length;
  if (hidden > 0) shown.push(`and ${hidden} more ${hidden === 1 ? "problem" : "problems"}`);
  return shown.join("; ");
}
