// The TransferResponse envelopes we answer with. Every answer, whatever its status, has this shape.
import { newId } from "@/lib/ids";
import type { ErrorType, TransferResponse } from "@/lib/interface/wire";

export function receivedResponse(requestID: string, referenceID: string, at = new Date()): TransferResponse {
  return {
    requestID,
    metadata: { responseType: "RECEIVED", referenceID, responseID: newId("rsp"), responseTimestamp: at.toISOString() },
  };
}

/**
 * An ERROR answer. Where no transfer of ours exists (the request was refused before one was created) the
 * referenceID is a fresh `err_` id, so the metadata stays complete and support can find the answer in the logs.
 */
export function errorResponse(
  requestID: string,
  type: ErrorType,
  description: string,
  referenceID: string = newId("err"),
  at = new Date(),
): TransferResponse {
  return {
    requestID,
    metadata: { responseType: "ERROR", referenceID, responseID: newId("rsp"), responseTimestamp: at.toISOString() },
    error: { type, description },
  };
}
