// The TransferResponse a decision owes the sender (docs/interface.md): the request's requestID, our referenceID,
// a new responseID; CONFIRMED carries the prescription as transferred (the sender's own values) and our
// local Rx number in metadata.localRxNumber; ERROR carries the pharmacist's type and description.
import {
  confirmedResponseOf,
  errorResponse,
  TransferResponseSchema,
  type ErrorType,
  type TransferRequest,
  type TransferResponse,
} from "@/lib/interface";

export function confirmedResponse(
  request: TransferRequest,
  referenceID: string,
  at: Date,
  localRxNumber?: string,
): TransferResponse {
  return TransferResponseSchema.parse(confirmedResponseOf(request, referenceID, at, localRxNumber));
}

export function rejectionResponse(
  request: TransferRequest,
  referenceID: string,
  at: Date,
  type: ErrorType,
  description: string,
): TransferResponse {
  return TransferResponseSchema.parse(errorResponse(request.metadata.requestID, type, description, referenceID, at));
}
