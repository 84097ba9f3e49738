// The response side of the wire format (interface sections 2.12-2.14): TransferResponse, its metadata and
// its error, also the body of the callbacks.
import * as z from "zod";

import { ERROR_TYPES, RESPONSE_TYPES, TEXT_LIMITS, type ResponseType } from "./wire-constants";
import { dateTime, text } from "./wire-fields";
import { PrescriptionSchema } from "./wire-request";

// 2.13 ResponseMetadata

export const ResponseMetadataSchema = z
  .looseObject({
    responseType: z.enum(RESPONSE_TYPES).meta({
      description:
        "RECEIVED: accepted, a confirming callback follows. CONFIRMED: transferred. ERROR: unsuccessful, see error.",
      example: "RECEIVED",
    }),
    referenceID: text(TEXT_LIMITS.identifier).meta({
      description: "Our identifier of the transfer; the same in the immediate answer and in the callback.",
      example: "trf_7Gq2LxW9pZ4mN8sK1vB3",
    }),
    responseID: text(TEXT_LIMITS.identifier).meta({
      description: "Unique identifier of this response.",
      example: "rsp_3Fh8KwQ1zX6cV9bN2mL5",
    }),
    responseTimestamp: dateTime().meta({ description: "Timestamp of the response.", example: "2024-06-03T14:02:11Z" }),
  })
  .meta({
    id: "ResponseMetadata",
    description:
      "Response metadata. Additional properties are allowed: a CONFIRMED answer may add localRxNumber, the Rx number our pharmacist assigned.",
  });
export type ResponseMetadata = z.infer<typeof ResponseMetadataSchema>;

// 2.14 Error

export const TransferErrorSchema = z
  .strictObject({
    type: z.enum(ERROR_TYPES).meta({ description: "The class of failure.", example: "MISSING_INFO" }),
    description: z.string().min(1).meta({
      description: "Which fields or condition failed, each field named by its full path.",
      example: "prescription.daysSupply is required",
    }),
  })
  .meta({ id: "Error", description: "Why a transfer request failed." });
export type TransferError = z.infer<typeof TransferErrorSchema>;

// 2.12 TransferResponse: one object per variant of interface section 4.1, tied to its responseType, so that
// a validator refuses a CONFIRMED without its prescription and a generated client can narrow the type.

/** ResponseMetadata whose responseType is `responseType` (published as ResponseMetadata and a const). */
const responseMetadataOf = <T extends ResponseType>(responseType: T) =>
  z.intersection(ResponseMetadataSchema, z.looseObject({ responseType: z.literal(responseType) }));

const requestID = z.string().meta({
  description: "Echoes metadata.requestID of the request; an empty string when it could not be read.",
  example: "req_01HZX3K8V6Q2M9T4",
});

export const ReceivedTransferResponseSchema = z
  .strictObject({ requestID, metadata: responseMetadataOf("RECEIVED") })
  .meta({
    id: "ReceivedTransferResponse",
    description: "RECEIVED: accepted and not yet processed; a callback follows. Neither prescription nor error.",
  });

export const ConfirmedTransferResponseSchema = z
  .strictObject({ requestID, metadata: responseMetadataOf("CONFIRMED"), prescription: PrescriptionSchema })
  .meta({ id: "ConfirmedTransferResponse", description: "CONFIRMED: transferred; carries the prescription." });

export const ErrorTransferResponseSchema = z
  .strictObject({ requestID, metadata: responseMetadataOf("ERROR"), error: TransferErrorSchema })
  .meta({ id: "ErrorTransferResponse", description: "ERROR: unsuccessful; carries the error." });

const TransferResponseUnion = z
  .union([ReceivedTransferResponseSchema, ConfirmedTransferResponseSchema, ErrorTransferResponseSchema])
  .meta({
    id: "TransferResponse",
    description:
      "Every answer of /v1/transfer and every callback, one of three variants told apart by metadata.responseType: RECEIVED (requestID and metadata), CONFIRMED (also prescription), ERROR (also error).",
  });

type KeysOfAny<T> = T extends unknown ? keyof T : never;
/** Each variant with the other variants' fields as absent keys, so `response.error` reads on any of them. */
type Exclusive<T, K extends PropertyKey = KeysOfAny<T>> = T extends unknown
  ? T & { [P in Exclude<K, keyof T>]?: undefined }
  : never;
export type TransferResponse = Exclusive<z.infer<typeof TransferResponseUnion>>;

/** The union, typed with the exclusive form of its output, so that a parsed answer reads like any other. */
export const TransferResponseSchema: z.ZodType<TransferResponse> = TransferResponseUnion;
