import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/canonical-json";
import { hashRequestContent } from "@/lib/transfers/intake";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";

/**
 * The oracle: the first implementation, written with entries, sort and join. Stored content
 * hashes and audit records were made with it, so the faster one must write the very same text.
 */
function previousCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(previousCanonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${previousCanonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

describe("canonicalJson", () => {
  it("writes keys sorted at every depth, leaves out undefined members, and writes nothing else differently", () => {
    expect(canonicalJson({ 10: 0, 9: 0 })).toBe('{"10":0,"9":0}');
    expect(canonicalJson({ b: 1, a: [2, { d: "x", c: null }], e: undefined, é: true, Z: "\u2028" })).toBe(
      '{"Z":"\u2028","a":[2,{"c":null,"d":"x"}],"b":1,"é":true}',
    );
    expect(canonicalJson([undefined, "s", 1.5, false])).toBe('[null,"s",1.5,false]');
    expect(canonicalJson("plain")).toBe('"plain"');
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("writes exactly what the previous implementation wrote, for any JSON value (integer-like keys included)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(previousCanonicalJson(value));
      }),
      { numRuns: 500 },
    );
  });

  it("keeps a stored transfer's content hash: a retry still matches what was hashed before this change", () => {
    const request = buildTransferRequest({}, { receivingNpi: "1234567893" });
    const { retryCount: _r, requestTimestamp: _t, ...metadata } = request.metadata;
    const expected = previousCanonicalJson({ ...request, metadata });
    expect(hashRequestContent(request)).toBe(createHash("sha256").update(expected).digest("hex"));
  });
});
