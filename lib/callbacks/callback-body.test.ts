import { describe, expect, it } from "vitest";
import { serializeCallbackBody } from "@/lib/callbacks/callback-body";
import { confirmedResponse } from "@/lib/transfers/decision";
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { TransferResponseSchema } from "@/lib/interface";

/** Every object's keys reversed, as jsonb may hand them back in any order. */
const reversed = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reversed)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, reversed(v)]),
        )
      : value;

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

  it("writes a CONFIRMED response, prescription and arrays included, byte for byte as the zod parse does", () => {
    const response = confirmedResponse(buildTransferRequest(), "trf_1", new Date("2026-01-01T00:00:00Z"), "L-9");
    const stored = reversed(response);
    expect(JSON.stringify(stored)).not.toBe(JSON.stringify(response));
    expect(serializeCallbackBody(stored)).toBe(JSON.stringify(TransferResponseSchema.parse(stored)));
  });

  it("keeps a stored __proto__ key as a key", () => {
    expect(serializeCallbackBody(JSON.parse('{"__proto__":{"x":1},"requestID":"r"}'))).toBe(
      '{"requestID":"r","__proto__":{"x":1}}',
    );
  });

  it("sends what was stored when it does not parse, rather than nothing", () => {
    expect(serializeCallbackBody({ odd: true })).toBe('{"odd":true}');
  });
});
