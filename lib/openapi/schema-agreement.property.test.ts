// The published OpenAPI document and our own validation agree: a validator generated from the document
// (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it, with ajv-formats) accepts a request exactly when our
// validation finds nothing wrong with its structure or with a bound the document publishes. Checked on
// valid requests and on random corruptions of them (deleted keys, nulls, other JSON values, shortened and
// lengthened strings, unknown keys). What JSON Schema cannot state is left to our validation alone and
// named in SEMANTIC_ONLY: check digits, dates in order, expiry, refills that add up.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { buildTransferRequest, DEMO_PHARMACY_NPI } from "@/lib/demo/sample-transfers";
import type { TransferRequest } from "@/lib/interface";
import { findShapeProblem, validateTransferRequest, type ValidationResult, BODY_SHAPE_LIMITS } from "@/lib/interface";
import { RESERVED_KEY_NAMES } from "@/lib/text-safety";
import { applyCorruption, corruption, validRequestAt, type Json } from "@/tests/support/json-corruption";

const NOW = new Date("2025-06-02T14:05:00Z");
const CTX = { storeNpis: new Set([DEMO_PHARMACY_NPI]), now: NOW };

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
ajv.addSchema({ ...buildOpenApiDocument(), $id: "https://rx-transfer.example/openapi.json" });
const ajvValidate = ajv.getSchema("https://rx-transfer.example/openapi.json#/components/schemas/TransferRequest")!;

/** Bounds our validation reports as INVALID_INFO and the document publishes as minimum / exclusiveMinimum. */
const PUBLISHED_SEMANTIC_BOUNDS = [
  "must be greater than 0",
  "must be at least 1 (it counts the first fill)",
  "must not be negative",
];

/** Does our validation find what the published schema can see: structure, or a published bound? */
function oursRefusesStructurally(result: ValidationResult): boolean {
  if (result.ok) return false;
  if (result.type === "MISSING_INFO" || result.type === "SPEC_MISMATCH") return true;
  return result.issues.some((i) => PUBLISHED_SEMANTIC_BOUNDS.includes(i.message));
}

/** Text PostgreSQL cannot store (NUL, lone surrogates) is refused by our validation on every string; JSON Schema has no word for it. */
function hasUnstorableText(value: Json): boolean {
  return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(JSON.stringify(value));
}

describe("the published schema and our validation agree", () => {
  it("both accept the valid requests", () => {
    fc.assert(
      fc.property(validRequestAt(NOW), (request) => {
        expect(validateTransferRequest(request, CTX).ok).toBe(true);
        expect(ajvValidate(request), JSON.stringify(ajvValidate.errors)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("on corrupted requests, ajv refuses exactly those our validation refuses for structure or a published bound", () => {
    fc.assert(
      fc.property(validRequestAt(NOW), fc.array(corruption, { minLength: 1, maxLength: 3 }), (request, corruptions) => {
        for (const c of corruptions) applyCorruption(request, c);
        fc.pre(!hasUnstorableText(request));
        const ours = validateTransferRequest(request, CTX);
        const theirs = ajvValidate(request);
        expect(
          theirs,
          `ours: ${ours.ok ? "valid" : ours.description}; ajv: ${JSON.stringify(ajvValidate.errors)}`,
        ).toBe(!oursRefusesStructurally(ours));
      }),
      { numRuns: 1500 },
    );
  }, 60_000);

  it("what the document says about metadata's extra keys (how many, which names), the service enforces", () => {
    fc.assert(
      fc.property(
        validRequestAt(NOW),
        fc.nat({ max: BODY_SHAPE_LIMITS.keysPerObject + 8 }),
        fc.option(fc.constantFrom(...RESERVED_KEY_NAMES), { nil: undefined }),
        (request, extras, reserved) => {
          const metadata = (request as { metadata: Record<string, unknown> }).metadata;
          for (let i = 0; i < extras; i++) metadata[`x${i}`] = i;
          if (reserved) Object.defineProperty(metadata, reserved, { value: 1, enumerable: true, writable: true });
          // The service as it meets the body: the shape scan of the text, then validation of the parsed value.
          const text = JSON.stringify(request);
          const shapeProblem = findShapeProblem(text);
          const ours = shapeProblem ? null : validateTransferRequest(JSON.parse(text), CTX);
          const serviceRefuses = shapeProblem !== null || oursRefusesStructurally(ours!);
          expect(serviceRefuses, shapeProblem ?? (ours!.ok ? "valid" : ours!.description)).toBe(!ajvValidate(request));
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each<[string, (r: TransferRequest) => void, boolean]>([
    ["daysSupply 1", (r) => (r.prescription.daysSupply = 1), true],
    ["daysSupply 999", (r) => (r.prescription.daysSupply = 999), true],
    ["daysSupply 0", (r) => (r.prescription.daysSupply = 0), false],
    ["daysSupply 1000", (r) => (r.prescription.daysSupply = 1000), false],
    ["daysSupply 2.5", (r) => (r.prescription.daysSupply = 2.5), false],
    ["quantityDispensed 0.5", (r) => (r.prescription.quantityDispensed = 0.5), true],
    ["quantityDispensed 0", (r) => (r.prescription.quantityDispensed = 0), false],
    ["refillsAuthorized 0", (r) => (r.prescription.refillsAuthorized = 0), false],
    ["refillsRemaining -1", (r) => (r.prescription.refillsRemaining = -1), false],
    ["a 10-digit NDC without hyphens (kept as sent)", (r) => (r.prescription.prescribedNDC = "0002322730"), true],
    ["an NDC with hyphens", (r) => (r.prescription.prescribedNDC = "0002-3227-30"), false],
    ["a 12-digit NDC", (r) => (r.prescription.prescribedNDC = "000023227301"), false],
    ["date-time with a space", (r) => (r.metadata.requestTimestamp = "2025-06-02 14:00:00Z"), false],
    ["date-time in lower case", (r) => (r.metadata.requestTimestamp = "2025-06-02t14:00:00z"), false],
    ["date-time without seconds", (r) => (r.metadata.requestTimestamp = "2025-06-02T14:00Z"), false],
    ["date-time on 31 June", (r) => (r.metadata.requestTimestamp = "2025-06-31T14:00:00Z"), false],
    ["date of birth 29 February 2001", (r) => (r.patient.dateOfBirth = "2001-02-29"), false],
    ["date of birth 29 February 2000", (r) => (r.patient.dateOfBirth = "2000-02-29"), true],
    [
      "fax URL https with a port and query",
      (r) => (r.prescription.faxImageURL = "https://fax.example.com:8443/i?id=<1>"),
      true,
    ],
    ["fax URL ftp", (r) => (r.prescription.faxImageURL = "ftp://fax.example.com/i.pdf"), false],
    ["fax URL on a one-letter top-level domain", (r) => (r.prescription.faxImageURL = "https://fax.e/i.pdf"), false],
  ])("%s: both say %s", (_, change, valid) => {
    const request = buildTransferRequest({}, { now: NOW });
    change(request);
    expect(validateTransferRequest(request, CTX).ok).toBe(valid);
    expect(ajvValidate(request)).toBe(valid);
  });
});
