// The operations of the OpenAPI document: the paths of /v1/transfer and /oauth/token with their statuses and
// examples, the transfer-outcome webhook, and the security every operation accepts.
import * as z from "zod";
import type { ZodOpenApiObject, ZodOpenApiPathsObject, ZodOpenApiResponseObject } from "zod-openapi";
import { CallbackAnswerSchema } from "@/lib/callbacks/callback-answer";
import { EXAMPLES, exampleError, exampleRequest } from "@/lib/openapi/examples";
import {
  OAuthErrorSchema,
  OAuthTokenRequestSchema,
  OAuthTokenResponseSchema,
  ReferenceIdParamsSchema,
  retryAfter,
  WebhookHeadersSchema,
} from "@/lib/openapi/schemas";
import { ERROR_TYPES, TransferRequestSchema, TransferResponseSchema, type TransferResponse } from "@/lib/interface";

/** Any one of the three schemes authenticates a call (they share the Authorization header). */
export const SECURITY: Record<string, string[]>[] = [{ senderKey: [] }, { bearer: [] }, { oauth2: [] }];

function transferResponse(
  description: string,
  examples: Record<string, { summary: string; value: TransferResponse }>,
  extra: Pick<ZodOpenApiResponseObject, "headers"> = {},
): ZodOpenApiResponseObject {
  return {
    description,
    ...extra,
    content: { "application/json": { schema: TransferResponseSchema, examples } },
  };
}

const errorOf = (type: (typeof ERROR_TYPES)[number], description: string) => ({
  error: { summary: type, value: exampleError(type, description) },
});

/** The answers every /v1 operation may give whatever was asked: over the rate limit, or a failure of ours. */
const LIMIT_AND_FAILURE_ANSWERS: Record<"429" | "500" | "503", ZodOpenApiResponseObject> = {
  "429": transferResponse(
    "ERROR: too many requests for these credentials; retry after the time given in Retry-After.",
    errorOf("OTHER", "too many requests: retry later"),
    { headers: retryAfter },
  ),
  "500": transferResponse(
    "ERROR: an unexpected failure on our side. Safe to retry (a transfer: with the same requestID).",
    errorOf("OTHER", "internal error"),
  ),
  "503": transferResponse(
    "ERROR: the service is temporarily unavailable (for example, its database). Safe to retry after Retry-After.",
    errorOf("OTHER", "service temporarily unavailable: retry later"),
    { headers: retryAfter },
  ),
};

/** Client authentication at the token endpoint (RFC 6749 section 2.3.1): HTTP Basic, or the form fields. */
export const TOKEN_ENDPOINT_SECURITY: Record<string, string[]>[] = [{ clientSecretBasic: [] }, {}];

function oauthError(description: string, headers?: z.ZodObject): ZodOpenApiResponseObject {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { "application/json": { schema: OAuthErrorSchema } },
  };
}

export function buildPaths(): ZodOpenApiPathsObject {
  return {
    "/v1/transfer": {
      post: {
        operationId: "transferPrescription",
        summary: "Transfer a prescription to this pharmacy",
        description:
          "Validates the request, stores it as RECEIVED for a pharmacist's review and answers at once. The CONFIRMED or ERROR decision follows as a callback. Where the receiving store has turned on immediate confirmation and the transfer qualifies, the answer is CONFIRMED at once with the prescription, and no callback follows.",
        security: SECURITY,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: TransferRequestSchema,
              examples: { transfer: { summary: "A refill transfer", value: exampleRequest } },
            },
          },
        },
        responses: {
          "200": transferResponse("RECEIVED (accepted, a callback follows) or CONFIRMED.", {
            received: EXAMPLES.received,
            confirmed: EXAMPLES.confirmed,
          }),
          "400": transferResponse(
            "ERROR caused by the request: MISSING_INFO, SPEC_MISMATCH (including malformed JSON, a body that is not UTF-8, and strings with a NUL or an unpaired surrogate), INVALID_INFO, RX_EXPIRED or DUPLICATE_REQUEST.",
            {
              missingInfo: EXAMPLES.missingInfo,
              specMismatch: EXAMPLES.specMismatch,
              invalidInfo: EXAMPLES.invalidInfo,
              expired: EXAMPLES.expired,
              duplicate: EXAMPLES.duplicate,
            },
          ),
          "401": transferResponse(
            "ERROR: the Authorization header is missing, uses an unknown scheme, or carries an unknown, revoked or expired key or token.",
            { unauthorized: EXAMPLES.unauthorized },
            {
              headers: z.object({
                "WWW-Authenticate": z.string().meta({
                  description: "The accepted schemes.",
                  example: 'senderKey realm="transfer", Bearer realm="transfer"',
                }),
              }),
            },
          ),
          "403": transferResponse(
            "ERROR: the credentials' partner has no registered sending pharmacy NPIs while this service accepts transfers only from registered NPIs.",
            errorOf("OTHER", "these credentials have no registered sending pharmacy NPIs"),
          ),
          "405": transferResponse(
            "ERROR: a method other than POST.",
            errorOf("OTHER", "method PUT is not allowed here; allowed: POST"),
          ),
          "413": transferResponse(
            "ERROR: the request body is larger than the service accepts.",
            errorOf("OTHER", "request body is larger than the limit of 1048576 bytes (1 MB)"),
          ),
          "415": transferResponse(
            "ERROR: the Content-Type is not application/json.",
            errorOf("SPEC_MISMATCH", "Content-Type must be application/json (UTF-8)"),
          ),
          ...LIMIT_AND_FAILURE_ANSWERS,
        },
      },
    },
    "/v1/transfer/{referenceID}": {
      get: {
        operationId: "getTransfer",
        summary: "The current state of a transfer",
        description:
          "Returns the transfer's current TransferResponse: RECEIVED while it awaits review, then the CONFIRMED or ERROR outcome that was (or is being) delivered by callback. Only the sender that created the transfer can read it.",
        security: SECURITY,
        requestParams: { path: ReferenceIdParamsSchema },
        responses: {
          "200": transferResponse("The transfer's current TransferResponse.", {
            received: EXAMPLES.received,
            confirmed: EXAMPLES.confirmed,
          }),
          "400": transferResponse(
            "ERROR: the referenceID is text that cannot be an identifier (a NUL or an unpaired surrogate).",
            errorOf("SPEC_MISMATCH", "referenceID contains a NUL character"),
          ),
          "401": transferResponse("ERROR: missing or bad credentials.", { unauthorized: EXAMPLES.unauthorized }),
          "404": transferResponse(
            "ERROR: no transfer with this referenceID belongs to the caller.",
            errorOf("OTHER", "no transfer with this referenceID"),
          ),
          ...LIMIT_AND_FAILURE_ANSWERS,
        },
      },
    },
    "/oauth/token": {
      post: {
        operationId: "issueAccessToken",
        summary: "Get a bearer token (OAuth 2.0 client credentials)",
        description:
          "Exchanges client credentials for a short-lived bearer token. Authenticate with HTTP Basic (`Authorization: Basic base64(client_id:client_secret)`, client_secret_basic) or with the client_id and client_secret form fields (client_secret_post), not both. The body is form-encoded (RFC 6749 section 4.4.2): a JSON body is invalid_request. Revoking the client revokes its tokens. Failed requests are limited per client and per address apart from the tokens issued, so a client presenting its correct secret is never refused because of others' failures.",
        security: TOKEN_ENDPOINT_SECURITY,
        requestBody: {
          required: true,
          content: { "application/x-www-form-urlencoded": { schema: OAuthTokenRequestSchema } },
        },
        responses: {
          "200": {
            description: "The access token.",
            headers: z.object({ "Cache-Control": z.literal("no-store") }),
            content: { "application/json": { schema: OAuthTokenResponseSchema } },
          },
          "400": oauthError(
            "invalid_request (including a body that is not form-encoded), unsupported_grant_type or invalid_scope.",
          ),
          "401": oauthError(
            "invalid_client: unknown client, wrong secret, or a revoked client.",
            z.object({ "WWW-Authenticate": z.string().meta({ example: 'Basic realm="oauth"' }) }),
          ),
          "429": oauthError(
            "temporarily_unavailable: too many tokens issued to this client, or too many failed requests for this client or from this address, in the last minute; retry after Retry-After.",
            retryAfter,
          ),
          "500": oauthError("server_error: an unexpected failure on our side; the description carries a request id."),
          "503": oauthError(
            "temporarily_unavailable: the service is temporarily unavailable (for example, its database).",
          ),
        },
      },
    },
  };
}

/**
 * The callback answers we understand (lib/callbacks/callback-answer.ts): the sender's callback API's shape
 * (metadata.responseType RX_CALLBACK_SUCCESS or RX_CALLBACK_ERROR) and a plain webhook receiver's 2xx.
 */
const CALLBACK_ANSWERS = {
  "2XX": {
    description:
      "Received. An empty or non-JSON body, or JSON without `metadata.responseType` (a plain webhook receiver), or `metadata.responseType: RX_CALLBACK_SUCCESS` (the sender's callback API: received and processed): delivered, no further attempts for this webhook-id. `RX_CALLBACK_ERROR` in a 2xx body is a refusal (see `default`); any other responseType is a failure and is retried. The body is read up to 16 KB and must end within the 15-second deadline.",
    content: {
      "application/json": {
        schema: CallbackAnswerSchema,
        examples: {
          processed: {
            summary: "RX_CALLBACK_SUCCESS: received and processed",
            value: {
              requestID: "req_example_20261123",
              metadata: {
                responseType: "RX_CALLBACK_SUCCESS",
                referenceID: "trf_01JD3Q5ZK8M7X2V9R4T6W8Y0A",
                responseID: "cbr_1",
                responseTimestamp: "2026-11-23T15:04:05Z",
              },
            },
          },
          refused: {
            summary: "RX_CALLBACK_ERROR: received but not processed (with any status, 200 included)",
            value: {
              requestID: "",
              metadata: {
                responseType: "RX_CALLBACK_ERROR",
                referenceID: "trf_01JD3Q5ZK8M7X2V9R4T6W8Y0A",
                responseID: "cbr_2",
                responseTimestamp: "2026-11-23T15:04:05Z",
              },
              error: { type: "MISSING_INFO", description: "could not map callback - requestID is missing" },
            },
          },
        },
      },
    },
  },
  "410": {
    description: "Gone: stop sending callbacks to this URL (the partner is flagged for our admins).",
  },
  default: {
    description:
      "A body whose `metadata.responseType` is `RX_CALLBACK_ERROR`, with any status: refused by the sender. The callback is marked REFUSED with your `error.type` and `error.description`, not retried automatically, and our admins are alerted; it is sent again (same webhook-id) when someone redelivers it after the cause is fixed. Any other answer (3xx, 4xx, 5xx, another responseType in a 2xx body), or none, or a body that has not ended within 15 seconds: the callback is retried.",
  },
} as const;

export function buildWebhooks(): NonNullable<ZodOpenApiObject["webhooks"]> {
  return {
    transferOutcome: {
      post: {
        operationId: "transferOutcomeCallback",
        summary: "The decision on a RECEIVED transfer, sent to your callback URL",
        description:
          "When a pharmacist approves or rejects a transfer we answered RECEIVED, we POST the CONFIRMED or ERROR TransferResponse (same requestID and referenceID, a new responseID) to the callback URL registered for you, signed per Standard Webhooks 1.0. Only a 2xx answer within 15 seconds counts; redirects are not followed. Retries: 5 s, 30 s, 2 min, 5 min, 15 min, 30 min, 1 h, then every 2 h, until 72 hours after the first attempt; `Retry-After` on 429 or 503 postpones the next attempt, and 410 Gone stops them. A callback may arrive more than once: deduplicate by webhook-id. A test callback that our admin sends to check your receiver has `metadata.test: true` and the referenceID `trf_test`: acknowledge it and do nothing else.",
        security: [],
        requestParams: { header: WebhookHeadersSchema },
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: TransferResponseSchema,
              examples: {
                confirmed: EXAMPLES.confirmed,
                rejected: {
                  summary: "Rejected by the pharmacist",
                  value: exampleError("INVALID_INFO", "prescription.refillsRemaining: no refills left to transfer"),
                },
              },
            },
          },
        },
        responses: CALLBACK_ANSWERS,
      },
    },
  };
}
