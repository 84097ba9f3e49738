// Who is calling /v1: an API key (`senderKey <key>`, or the bare key as the sender's own curl example
// sends it) or an OAuth bearer token. Scheme words are case-insensitive (RFC 9110 §11.1).
import { looksLikeApiKey } from "@/lib/auth/api-keys";
import { findSenderByApiKey, knownApiKey, type KnownApiKey } from "@/lib/auth/find-sender-by-api-key";
import { findSenderByBearerToken } from "@/lib/auth/oauth";

export type Sender = {
  partnerId: string;
  /** The sending-pharmacy NPIs registered for the partner; empty means any. */
  npis: string[];
  credential: "apiKey" | "oauth";
  credentialId: string;
};

export type SenderAuthResult =
  | { ok: true; sender: Sender }
  | { ok: false; error: "missing_credentials" | "invalid_credentials" | "unsupported_scheme"; description: string };

export const WWW_AUTHENTICATE = 'senderKey realm="transfer", Bearer realm="transfer"';

/** The scheme ("senderkey" also for a bare API key, "" for none) and the credential of an Authorization header. */
function splitAuthorization(header: string): { scheme: string; credential: string } {
  const space = header.search(/\s/);
  if (space === -1) return { scheme: looksLikeApiKey(header) ? "senderkey" : "", credential: header };
  return { scheme: header.slice(0, space).toLowerCase(), credential: header.slice(space).trim() };
}

/**
 * The API key of this header as this process last found it valid, or null. A hint, not an authentication:
 * whoever uses it must check the key again in the statement that acts on it (receiveTransferWithKeyCheck).
 */
export function knownApiKeyOf(authorization: string | null): KnownApiKey | null {
  const { scheme, credential } = splitAuthorization(authorization?.trim() ?? "");
  return scheme === "senderkey" ? knownApiKey(credential) : null;
}

export async function authenticateSender(authorization: string | null): Promise<SenderAuthResult> {
  const header = authorization?.trim() ?? "";
  if (!header) {
    return {
      ok: false,
      error: "missing_credentials",
      description:
        "the Authorization header is missing: send `Authorization: senderKey <API key>` or `Authorization: Bearer <access token>`",
    };
  }
  const { scheme, credential } = splitAuthorization(header);

  if (scheme === "senderkey") {
    const sender = await findSenderByApiKey(credential);
    return sender
      ? {
          ok: true,
          sender: { partnerId: sender.partnerId, npis: sender.npis, credential: "apiKey", credentialId: sender.keyId },
        }
      : {
          ok: false,
          error: "invalid_credentials",
          description: "the API key is not valid: unknown, revoked or expired",
        };
  }
  if (scheme === "bearer") {
    const sender = await findSenderByBearerToken(credential);
    return sender
      ? {
          ok: true,
          sender: {
            partnerId: sender.partnerId,
            npis: sender.npis,
            credential: "oauth",
            credentialId: sender.oauthClientId,
          },
        }
      : {
          ok: false,
          error: "invalid_credentials",
          description: "the access token is not valid: unknown, expired or revoked",
        };
  }
  return {
    ok: false,
    error: "unsupported_scheme",
    description: "the Authorization scheme is not supported: use `senderKey <API key>` or `Bearer <access token>`",
  };
}
