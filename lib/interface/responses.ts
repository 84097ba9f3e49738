// The TransferResponse envelopes we answer with. Every answer, whatever its status, has this shape.
import { newId } from "@/lib/ids";
import type { ErrorType, TransferRequest, TransferResponse } from "@/lib/interface/wire";

export function receivedResponse(requestID: string, referenceID: string, at = new Date()): TransferResponse {
  return {
    requestID,
    metadata: { responseType: "RECEIVED", referenceID, responseID: newId("rsp"), responseTimestamp: at.toISOString() },
  };
}

/** A CONFIRMED answer: the prescription as transferred (the sender's own values), and our local Rx number if given. */
export function confirmedResponseOf(
  request: TransferRequest,
  referenceID: string,
  at = new Date(),
  localRxNumber?: string,
): TransferResponse {
  return {
    requestID: request.metadata.requestID,
    metadata: {
      responseType: "CONFIRMED",
      referenceID,
      responseID: newId("rsp"),
      responseTimestamp: at.toISOString(),
      ...(localRxNumber ? { localRxNumber } : {}),
    },
    prescription: request.prescription,
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
