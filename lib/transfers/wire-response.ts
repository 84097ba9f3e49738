// The response side of the wire format (interface sections 2.12-2.14): TransferResponse, its metadata and
// its error, also the body of the callbacks.
import * as z from "zod";

import { ERROR_TYPES, RESPONSE_TYPES, TEXT_LIMITS } from "./wire-constants";
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

// 2.12 TransferResponse

export const TransferResponseSchema = z
  .strictObject({
    requestID: z.string().meta({
      description: "Echoes metadata.requestID of the request; an empty string when it could not be read.",
      example: "req_01HZX3K8V6Q2M9T4",
    }),
    metadata: ResponseMetadataSchema,
    error: TransferErrorSchema.optional(),
    prescription: PrescriptionSchema.optional(),
  })
  .superRefine((response, ctx) => {
    // The three variants of interface section 4.1: which of error/prescription each one carries.
    const { responseType } = response.metadata;
    const hasError = response.error !== undefined;
    const hasPrescription = response.prescription !== undefined;
    if (responseType === "ERROR" && !hasError) {
      ctx.addIssue({ code: "custom", path: ["error"], message: "is required when metadata.responseType is ERROR" });
    }
    if (responseType !== "ERROR" && hasError) {
      ctx.addIssue({ code: "custom", path: ["error"], message: "is allowed only when metadata.responseType is ERROR" });
    }
    if (responseType === "CONFIRMED" && !hasPrescription) {
      ctx.addIssue({
        code: "custom",
        path: ["prescription"],
        message: "is required when metadata.responseType is CONFIRMED",
      });
    }
    if (responseType !== "CONFIRMED" && hasPrescription) {
      ctx.addIssue({
        code: "custom",
        path: ["prescription"],
        message: "is allowed only when metadata.responseType is CONFIRMED",
      });
    }
  })
  .meta({
    id: "TransferResponse",
    description:
      "Every answer of /v1/transfer. RECEIVED: requestID and metadata. CONFIRMED: also prescription. ERROR: also error.",
  });
export type TransferResponse = z.infer<typeof TransferResponseSchema>;
