// The schemas of the OpenAPI document that are not the transfer wire format (that is lib/interface/wire.ts):
// the OAuth token endpoint's shapes, the referenceID path parameter, and the Retry-After and Standard
// Webhooks headers.
import * as z from "zod";

export const OAuthTokenRequestSchema = z
  .object({
    grant_type: z.literal("client_credentials").meta({ description: "Always client_credentials." }),
    client_id: z
      .string()
      .optional()
      .meta({ description: "The client id, when the client does not authenticate with HTTP Basic." }),
    client_secret: z
      .string()
      .optional()
      .meta({ description: "The client secret, when the client does not authenticate with HTTP Basic." }),
    scope: z.string().optional().meta({ description: "Ignored: tokens carry the client's full access." }),
  })
  .meta({
    id: "OAuthTokenRequest",
    description:
      "Client credentials grant (RFC 6749 section 4.4). Authenticate with HTTP Basic (client_id:client_secret) or with the client_id and client_secret fields.",
  });

export const OAuthTokenResponseSchema = z
  .strictObject({
    access_token: z.string().meta({ description: "Opaque bearer token.", example: "rxt_4Jx9…" }),
    token_type: z.literal("Bearer"),
    expires_in: z.int().min(1).meta({ description: "Lifetime of the token in seconds.", example: 900 }),
  })
  .meta({ id: "OAuthTokenResponse", description: "A short-lived access token." });

export const OAuthErrorSchema = z
  .strictObject({
    error: z
      .enum([
        "invalid_request",
        "invalid_client",
        "invalid_grant",
        "unauthorized_client",
        "unsupported_grant_type",
        "invalid_scope",
        "temporarily_unavailable",
        "server_error",
      ])
      .meta({
        description:
          "RFC 6749 section 5.2 error code; temporarily_unavailable (429, 503) and server_error (500) as RFC 6749 section 4.1.2.1 names them.",
        example: "invalid_client",
      }),
    error_description: z
      .string()
      .optional()
      .meta({ description: "Human-readable explanation.", example: "client authentication failed" }),
  })
  .meta({ id: "OAuthError", description: "An OAuth 2.0 error response (RFC 6749 section 5.2)." });

export const ReferenceIdParamsSchema = z.object({
  referenceID: z.string().min(1).max(128).meta({
    description: "The referenceID from an earlier answer to POST /v1/transfer.",
    example: "trf_7Gq2LxW9pZ4mN8sK1vB3",
  }),
});

export const retryAfter = z.object({
  "Retry-After": z.string().meta({ description: "Seconds to wait before retrying.", example: "30" }),
});

/** Standard Webhooks 1.0 headers of every callback attempt. */
export const WebhookHeadersSchema = z.object({
  "webhook-id": z.string().meta({
    description: "The callback's id (msg_…), the same on every attempt: your idempotency key.",
    example: "msg_2Lk9PqR7tY1wX4zC6vN8",
  }),
  "webhook-timestamp": z.string().regex(/^\d+$/).meta({
    description: "Unix time in seconds of this attempt. Refuse timestamps far from your clock (replays).",
    example: "1748873100",
  }),
  "webhook-signature": z.string().meta({
    description:
      "Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}` with your whsec_ secret (the base64 after the prefix, decoded). Two while a rotated-out secret is still valid: accept the request when any one matches.",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});
