import { describe, expect, it } from "vitest";
import { serializeCallbackBody } from "@/lib/callbacks/callback-body";

describe("serializeCallbackBody", () => {
  it("writes a stored (key-reordered) TransferResponse in the wire order, extra metadata kept", () => {
    const fromJsonb = {
      error: { description: "prescription.daysSupply is required", type: "MISSING_INFO" },
      metadata: {
        localRxNumber: "L-1",
        responseID: "rsp_1",
        referenceID: "trf_1",
        responseType: "ERROR",
        responseTimestamp: "2026-01-01T00:00:00Z",
      },
      requestID: "req-1",
    };
    expect(serializeCallbackBody(fromJsonb)).toBe(
      '{"requestID":"req-1","metadata":{"responseType":"ERROR","referenceID":"trf_1","responseID":"rsp_1","responseTimestamp":"2026-01-01T00:00:00Z","localRxNumber":"L-1"},"error":{"type":"MISSING_INFO","description":"prescription.daysSupply is required"}}',
    );
  });

  it("sends what was stored when it does not parse, rather than nothing", () => {
    expect(serializeCallbackBody({ odd: true })).toBe('{"odd":true}');
  });
});
