// Random corruptions of valid requests, anywhere in the tree: the validator must always answer with a
// well-formed result (valid, or one of the error types with a description that names the failing paths),
// never throw, never quote a rejected value, and classify absent keys and nulls as the interface says.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEMO_PHARMACY_NPI } from "@/lib/demo/sample-transfers";
import { MAX_DESCRIBED_ISSUES, validateTransferRequest, type ValidationResult } from "@/lib/interface/validate-request";
import {
  applyCorruption,
  corruption,
  deleteAt,
  dotted,
  nodes,
  setAt,
  validRequestAt,
  type Json,
} from "@/tests/support/json-corruption";
import { ERROR_TYPES, TransferRequestSchema, type ErrorType } from "@/lib/interface/wire";

const NOW = new Date("2025-06-02T14:05:00Z");
const CTX = { storeNpis: new Set([DEMO_PHARMACY_NPI]), now: NOW };
const PRECEDENCE: ErrorType[] = ["MISSING_INFO", "SPEC_MISMATCH", "RX_EXPIRED", "INVALID_INFO"];

const validRequest = validRequestAt(NOW);

/** The invariants every result must satisfy. */
function expectWellFormed(result: ValidationResult): void {
  if (result.ok) {
    expect(TransferRequestSchema.safeParse(result.request).success).toBe(true);
    return;
  }
  expect(ERROR_TYPES).toContain(result.type);
  expect(PRECEDENCE).toContain(result.type);
  expect(result.issues.length).toBeGreaterThan(0);
  expect(result.description.trim()).not.toBe("");
  // The result's type is the most specific class among its issues.
  const best = PRECEDENCE.find((t) => result.issues.some((i) => i.type === t));
  expect(result.type).toBe(best);
  // Structural and semantic issues never mix: semantics run only on a well-formed request.
  const structural = result.issues.filter((i) => i.type === "MISSING_INFO" || i.type === "SPEC_MISMATCH").length;
  expect(structural === 0 || structural === result.issues.length).toBe(true);
  for (const issue of result.issues.slice(0, MAX_DESCRIBED_ISSUES)) {
    expect(ERROR_TYPES).toContain(issue.type);
    expect(issue.message).not.toBe("");
    expect(result.description).toContain(`${issue.path || "request body"} ${issue.message}`);
  }
  if (result.issues.length > MAX_DESCRIBED_ISSUES) {
    expect(result.description).toMatch(
      new RegExp(`and ${result.issues.length - MAX_DESCRIBED_ISSUES} more problems?$`),
    );
  }
}

describe("validateTransferRequest under random corruption", () => {
  it("always answers with a well-formed result and never mutates its input", () => {
    fc.assert(
      fc.property(validRequest, fc.array(corruption, { minLength: 1, maxLength: 4 }), (request, corruptions) => {
        for (const c of corruptions) applyCorruption(request, c);
        const before = JSON.stringify(request);
        const result = validateTransferRequest(request, CTX);
        expectWellFormed(result);
        expect(JSON.stringify(request)).toBe(before);
        expect(validateTransferRequest(request, CTX)).toEqual(result);
      }),
      { numRuns: 400 },
    );
  });

  it("classifies any deleted key of an object as MISSING_INFO and names it", () => {
    fc.assert(
      fc.property(validRequest, fc.nat(), (request, pick) => {
        const keys = nodes(request).filter(
          (n) => typeof n.path[n.path.length - 1] === "string" && dotted(n.path) !== "metadata.retryCount",
        );
        const target = keys[pick % keys.length]!.path;
        deleteAt(request, target);
        const result = validateTransferRequest(request, CTX);
        expectWellFormed(result);
        expect(result).toMatchObject({ ok: false, type: "MISSING_INFO" });
        if (!result.ok) {
          expect(result.issues).toContainEqual({ path: dotted(target), type: "MISSING_INFO", message: "is required" });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("classifies null as MISSING_INFO where the field is not nullable, and accepts it where it is", () => {
    fc.assert(
      fc.property(validRequest, fc.nat(), (request, pick) => {
        const all = nodes(request);
        const target = all[pick % all.length]!.path;
        setAt(request, target, null);
        const result = validateTransferRequest(request, CTX);
        expectWellFormed(result);
        const path = dotted(target);
        if (path === "metadata.retryCount") {
          expect(result).toMatchObject({ ok: false, type: "SPEC_MISMATCH" });
        } else if (!result.ok && result.type === "MISSING_INFO") {
          expect(result.issues).toEqual([{ path, type: "MISSING_INFO", message: "must not be null" }]);
        } else {
          // A nullable field: valid, or a rule across fields objects (lastFilledDate needs firstFilledDate).
          expect(result.ok || result.type === "INVALID_INFO").toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never quotes a rejected value in the description", () => {
    const marker = fc.string({ minLength: 0, maxLength: 12 }).map((s) => `QQ${s.replace(/Q/g, "")}`);
    fc.assert(
      fc.property(validRequest, fc.nat(), marker, (request, pick, value) => {
        const all = nodes(request);
        setAt(request, all[pick % all.length]!.path, value);
        const result = validateTransferRequest(request, CTX);
        expectWellFormed(result);
        if (!result.ok) expect(result.description).not.toContain("QQ");
      }),
      { numRuns: 300 },
    );
  });

  it("answers any JSON value, not only damaged requests", () => {
    fc.assert(
      fc.property(fc.jsonValue() as fc.Arbitrary<Json>, (body) => {
        const result = validateTransferRequest(body, CTX);
        expectWellFormed(result);
        expect(result.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("answers objects that only resemble a request", () => {
    const keys = fc.constantFrom(...Object.keys(TransferRequestSchema.shape), "extra");
    fc.assert(
      fc.property(fc.dictionary(keys, fc.jsonValue({ maxDepth: 3 })), (body) => {
        expectWellFormed(validateTransferRequest(body, CTX));
      }),
      { numRuns: 300 },
    );
  });
});
