import { describe, expect, it } from "vitest";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { findShapeProblem } from "@/lib/interface/request-shape";
import { BODY_SHAPE_LIMITS } from "@/lib/interface/wire-constants";

const withMetadata = (extra: Record<string, unknown>) => {
  const request = buildTransferRequest();
  return JSON.stringify({ ...request, metadata: { ...request.metadata, ...extra } });
};
const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

describe("findShapeProblem", () => {
  it("passes a valid request, with the most allergies and metadata keys allowed", () => {
    const request = buildTransferRequest();
    request.patient.allergyDetails.allergies = Array.from({ length: BODY_SHAPE_LIMITS.itemsPerArray }, () => "x");
    expect(findShapeProblem(JSON.stringify(request))).toBeNull();
    expect(findShapeProblem(withMetadata(keys(BODY_SHAPE_LIMITS.keysPerObject - 4)))).toBeNull();
  });

  it("names the object with too many keys and the array with too many items", () => {
    expect(findShapeProblem(withMetadata(keys(120_000)))).toBe("metadata has more than 64 keys");
    const request = buildTransferRequest();
    request.patient.allergyDetails.allergies = Array.from({ length: 101 }, () => "x");
    expect(findShapeProblem(JSON.stringify(request))).toBe("patient.allergyDetails.allergies has more than 100 items");
    // A key written with escapes is named as it reads.
    const escaped = withMetadata({ ab: [Array.from({ length: 200 }, () => 0)] }).replace('"ab"', '"a\\u0062"');
    expect(findShapeProblem(escaped)).toBe("metadata.ab[0] has more than 100 items");
  });

  it("counts values in the whole body and bounds nesting", () => {
    const wide = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, Array(99).fill([])]));
    expect(findShapeProblem(withMetadata(wide))).toBe("request body has more than 4000 values");
    expect(findShapeProblem(withMetadata({ deep: JSON.parse("[".repeat(40) + "]".repeat(40)) }))).toMatch(
      /^metadata\.deep(\[0\])+ is nested too deeply \(more than 32 levels\)$/,
    );
  });

  it("is not fooled by brackets, commas and escaped quotes inside strings", () => {
    expect(findShapeProblem(withMetadata({ note: '\\"{[,,,'.repeat(10_000) }))).toBeNull();
  });
});
