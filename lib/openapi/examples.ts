// The OpenAPI document's examples, typed against the wire format so they cannot drift from it.
import { buildTransferRequest } from "@/lib/demo/sample-transfers";
import { ERROR_TYPES, type TransferResponse } from "@/lib/interface";

/** A fixed moment for the examples, so the document is stable between builds. */
const EXAMPLE_NOW = new Date("2025-06-02T14:05:00Z");

export const exampleRequest = buildTransferRequest({}, { now: EXAMPLE_NOW });
const exampleRequestId = exampleRequest.metadata.requestID;
const exampleTimestamp = "2025-06-02T14:05:00Z";

export function exampleError(type: (typeof ERROR_TYPES)[number], description: string): TransferResponse {
  return {
    requestID: exampleRequestId,
    metadata: {
      responseType: "ERROR",
      referenceID: "trf_7Gq2LxW9pZ4mN8sK1vB3",
      responseID: "rsp_9Hk2PqR7tY1wX4zC6vN8",
      responseTimestamp: exampleTimestamp,
    },
    error: { type, description },
  };
}

export const EXAMPLES = {
  received: {
    summary: "Accepted; a CONFIRMED or ERROR callback follows",
    value: {
      requestID: exampleRequestId,
      metadata: {
        responseType: "RECEIVED",
        referenceID: "trf_7Gq2LxW9pZ4mN8sK1vB3",
        responseID: "rsp_3Fh8KwQ1zX6cV9bN2mL5",
        responseTimestamp: exampleTimestamp,
      },
    } satisfies TransferResponse,
  },
  confirmed: {
    summary: "Transferred (the answer to a status lookup, or the callback)",
    value: {
      requestID: exampleRequestId,
      metadata: {
        responseType: "CONFIRMED",
        referenceID: "trf_7Gq2LxW9pZ4mN8sK1vB3",
        responseID: "rsp_5Tg7JmQ2wE8rY3uI1oP4",
        responseTimestamp: exampleTimestamp,
        localRxNumber: "6120457",
      },
      prescription: exampleRequest.prescription,
    } satisfies TransferResponse,
  },
  missingInfo: {
    summary: "A required field is missing",
    value: exampleError("MISSING_INFO", "prescription.daysSupply is required; patient.name.lastName must not be null"),
  },
  specMismatch: {
    summary: "A field does not match the specification",
    value: exampleError("SPEC_MISMATCH", "prescription.dawCode must be an integer from 0 to 9"),
  },
  invalidInfo: {
    summary: "Well-formed but not acceptable",
    value: exampleError(
      "INVALID_INFO",
      "prescriber.npi is not a valid NPI: the check digit does not match; prescription.refillsRemaining leaves nothing to transfer: the prescription was filled and has no refills remaining",
    ),
  },
  expired: {
    summary: "The prescription is expired",
    value: exampleError("RX_EXPIRED", "prescription.expirationDate has passed: the prescription is expired"),
  },
  duplicate: {
    summary: "Already submitted",
    value: exampleError(
      "DUPLICATE_REQUEST",
      "this prescription already has a transfer here (referenceID trf_2Bn5…): it is RECEIVED",
    ),
  },
  unauthorized: {
    summary: "Missing or bad credentials",
    value: exampleError(
      "OTHER",
      "the Authorization header is missing: send `Authorization: senderKey <API key>` or `Authorization: Bearer <access token>`",
    ),
  },
} as const;
