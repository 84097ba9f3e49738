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
import * as z from "zod";
import { findJsonProblems, formatPath, textProblem, type JsonProblem } from "@/lib/text-safety";
import { hasDeaFormat, isUsStateCode, isValidDea, isValidNpi } from "@/lib/transfers/identifiers";
import { TransferRequestSchema, type Address, type ErrorType, type TransferRequest } from "@/lib/transfers/wire";
import { instantOf, startOfDayUtc } from "@/lib/transfers/dates";

export { formatPath };

export type FieldIssue = { path: string; type: ErrorType; message: string };
export type ValidationContext = { storeNpis: ReadonlySet<string>; now: Date };
export type ValidationResult =
  { ok: true; request: TransferRequest } | { ok: false; type: ErrorType; description: string; issues: FieldIssue[] };

/** How many issues the description spells out before summarising the rest as "and N more". */
export const MAX_DESCRIBED_ISSUES = 20;
/** Tolerated difference between the sender's clock and ours when judging "in the future". */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

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

// ---------------------------------------------------------------------------------------------------
// Structure: zod issues → FieldIssues

type PathSegment = PropertyKey;

function structuralIssues(
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
function ruleMessage(issue: z.core.$ZodRawIssue): string | undefined {
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------------
// Semantics: a structurally valid request whose values must also make sense

function semanticIssues(request: TransferRequest, ctx: ValidationContext): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const invalid = (path: string, message: string) => issues.push({ path, type: "INVALID_INFO", message });

  checkIdentifiers(request, ctx, invalid);
  checkStates(request, invalid);
  checkAllergies(request, invalid);
  checkQuantitiesAndRefills(request, invalid);
  checkDates(request, ctx, invalid);

  const expiration = instantOf(request.prescription.expirationDate);
  if (expiration <= ctx.now.getTime()) {
    issues.push({
      path: "prescription.expirationDate",
      type: "RX_EXPIRED",
      message: "has passed: the prescription is expired",
    });
  }
  return issues;
}

type Report = (path: string, message: string) => void;

function checkIdentifiers(request: TransferRequest, ctx: ValidationContext, invalid: Report): void {
  const npis: [string, string][] = [
    ["prescriber.npi", request.prescriber.npi],
    ["sendingPharmacy.npi", request.sendingPharmacy.npi],
    ["receivingPharmacy.npi", request.receivingPharmacy.npi],
  ];
  for (const [path, npi] of npis) {
    if (!/^[12]/.test(npi)) {
      invalid(path, "is not a valid NPI: it must start with 1 or 2");
    } else if (!isValidNpi(npi)) {
      invalid(path, "is not a valid NPI: the check digit does not match");
    } else if (path === "receivingPharmacy.npi" && !ctx.storeNpis.has(npi)) {
      invalid(path, "is not a pharmacy that this service receives transfers for");
    }
  }

  const deas: [string, string | null][] = [
    ["prescriber.dea", request.prescriber.dea],
    ["sendingPharmacy.dea", request.sendingPharmacy.dea],
    ["receivingPharmacy.dea", request.receivingPharmacy.dea],
  ];
  for (const [path, dea] of deas) {
    if (dea === null) continue;
    if (!hasDeaFormat(dea)) {
      invalid(path, "is not a valid DEA number: it must be 2 capital letters followed by 7 digits");
    } else if (!isValidDea(dea)) {
      invalid(path, "is not a valid DEA number: the check digit does not match");
    }
  }
}

function checkStates(request: TransferRequest, invalid: Report): void {
  const addresses: [string, Address][] = [
    ["patient.address", request.patient.address],
    ["prescriber.address", request.prescriber.address],
    ["sendingPharmacy.address", request.sendingPharmacy.address],
    ["receivingPharmacy.address", request.receivingPharmacy.address],
  ];
  for (const [path, address] of addresses) {
    if (!isUsStateCode(address.state)) invalid(`${path}.state`, "is not a US state or territory code");
  }
}

function checkAllergies(request: TransferRequest, invalid: Report): void {
  const { allergiesDescriptor, allergies } = request.patient.allergyDetails;
  const path = "patient.allergyDetails.allergies";
  if (allergiesDescriptor === "KNOWN_ALLERGIES_INCLUDED" && allergies.length === 0) {
    invalid(path, "must list at least one allergy when allergiesDescriptor is KNOWN_ALLERGIES_INCLUDED");
  }
  if (allergiesDescriptor !== "KNOWN_ALLERGIES_INCLUDED" && allergies.length > 0) {
    invalid(path, `must be empty when allergiesDescriptor is ${allergiesDescriptor}`);
  }
}

function checkQuantitiesAndRefills(request: TransferRequest, invalid: Report): void {
  const rx = request.prescription;
  if (rx.daysSupply <= 0) invalid("prescription.daysSupply", "must be greater than 0");
  if (rx.quantityWritten <= 0) invalid("prescription.quantityWritten", "must be greater than 0");
  if (rx.quantityDispensed <= 0) invalid("prescription.quantityDispensed", "must be greater than 0");
  if (rx.dispensedNDC !== null && rx.dispensedNDC === rx.prescribedNDC) {
    invalid("prescription.dispensedNDC", "must be null when it equals prescription.prescribedNDC");
  }

  // refillsAuthorized counts the first fill; refillsRemaining counts the fills after it.
  if (rx.refillsAuthorized < 1) {
    invalid("prescription.refillsAuthorized", "must be at least 1 (it counts the first fill)");
  }
  if (rx.refillsRemaining < 0) {
    invalid("prescription.refillsRemaining", "must not be negative");
  } else if (rx.refillsAuthorized >= 1 && rx.refillsRemaining > rx.refillsAuthorized - 1) {
    invalid(
      "prescription.refillsRemaining",
      "must be less than prescription.refillsAuthorized (refillsAuthorized includes the first fill)",
    );
  } else if (rx.firstFilledDate !== null && rx.refillsRemaining === 0) {
    invalid(
      "prescription.refillsRemaining",
      "leaves nothing to transfer: the prescription was filled and has no refills remaining",
    );
  }
}

function checkDates(request: TransferRequest, ctx: ValidationContext, invalid: Report): void {
  const rx = request.prescription;
  const latestAcceptable = ctx.now.getTime() + CLOCK_SKEW_MS;
  const written = instantOf(rx.writtenDate);
  const firstFilled = rx.firstFilledDate === null ? null : instantOf(rx.firstFilledDate);
  const lastFilled = rx.lastFilledDate === null ? null : instantOf(rx.lastFilledDate);
  const expiration = instantOf(rx.expirationDate);
  const dob = request.patient.dateOfBirth;

  // A date of birth has no time zone: it is "in the future" only once that day has begun nowhere on
  // Earth yet (the earliest zone is UTC+14).
  if (startOfDayUtc(dob) - 14 * 3600_000 > latestAcceptable) {
    invalid("patient.dateOfBirth", "must not be in the future");
  } else if (dob > rx.writtenDate.slice(0, 10)) {
    // Compared with the calendar date the prescription was written on, in the prescriber's own offset.
    invalid("patient.dateOfBirth", "must not be after prescription.writtenDate");
  }

  if (written > latestAcceptable) invalid("prescription.writtenDate", "must not be in the future");
  if (expiration <= written) invalid("prescription.expirationDate", "must be after prescription.writtenDate");

  if (lastFilled !== null && firstFilled === null) {
    invalid("prescription.firstFilledDate", "is required when prescription.lastFilledDate is set");
  }
  if (firstFilled !== null) {
    if (firstFilled > latestAcceptable) {
      invalid("prescription.firstFilledDate", "must not be in the future");
    } else if (firstFilled < written) {
      invalid("prescription.firstFilledDate", "must not be before prescription.writtenDate");
    }
  }
  if (lastFilled !== null) {
    if (lastFilled > latestAcceptable) {
      invalid("prescription.lastFilledDate", "must not be in the future");
    } else if (firstFilled !== null && lastFilled < firstFilled) {
      invalid("prescription.lastFilledDate", "must not be before prescription.firstFilledDate");
    }
  }
}
