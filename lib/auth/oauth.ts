// OAuth 2.0 client credentials (RFC 6749 §4.4): partners trade a client id and secret for a short-lived
// bearer token. Tokens are opaque, stored as SHA-256, and die with their client. Issued tokens are rate
// limited per client, failed requests per client and per address apart from them, and a client holds a
// bounded number of live tokens. Clients are made and revoked by
// create-oauth-client.ts and revoke-oauth-client.ts.
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { newId } from "@/lib/ids";
import { generateSecret, hasValidChecksum, safeEqualHex, sha256Hex } from "@/lib/auth/secrets";
import { consumeRateLimit } from "@/lib/rate-limit/consume-rate-limit";
import { prismaStatement } from "@/lib/db/kysely";
import { deleteExpiredOAuthTokens, deleteOAuthTokensBeyond, selectSenderByTokenHash } from "@/lib/auth/sql";

export const CLIENT_SECRET_PREFIX = "rxs";
export const ACCESS_TOKEN_PREFIX = "rxt";

export class OAuthError extends Error {
  constructor(
    readonly code: "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope",
    readonly description: string,
  ) {
    super(description);
  }
}

/** Too many token requests for this client (or address): 429 with Retry-After. */
export class OAuthRateLimited extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly description: string,
  ) {
    super(description);
  }
}

export type IssuedToken = { accessToken: string; expiresIn: number };

export type IssueAccessTokenOptions = {
  clientId: string;
  clientSecret: string;
  /** The caller's address (lib/http/client-address.ts), or null when it is not known. */
  clientAddress: string | null;
};

/**
 * Failures are counted per client and per address, in buckets of their own: a stranger who knows a client id
 * (not a secret, RFC 6749 §2.2) can slow down only its own guesses, never the partner that presents the
 * correct secret. Successes are counted per client only, so a partner's budget is its own.
 */
async function countFailure(clientRowId: string | null, clientAddress: string | null): Promise<void> {
  const buckets: [string, number, string][] = [];
  if (clientRowId)
    buckets.push([`oauth-fail-client:${clientRowId}`, env().OAUTH_TOKEN_RATE_LIMIT_PER_CLIENT, "client"]);
  if (clientAddress)
    buckets.push([`oauth-fail-addr:${clientAddress}`, env().OAUTH_TOKEN_RATE_LIMIT_PER_ADDRESS, "address"]);
  for (const [key, limit, what] of buckets) {
    const result = await consumeRateLimit(key, limit, 60);
    if (!result.allowed) {
      throw new OAuthRateLimited(
        result.retryAfterSeconds,
        `at most ${limit} failed token requests a minute for this ${what}; retry after ${result.retryAfterSeconds} s`,
      );
    }
  }
}

export async function issueAccessToken({
  clientId,
  clientSecret,
  clientAddress,
}: IssueAccessTokenOptions): Promise<IssuedToken> {
  // A secret we never issued (its built-in checksum is wrong) is refused without a lookup and without
  // counting anything: it cannot be anyone's, so it must not spend anyone's budget.
  if (!hasValidChecksum(clientSecret, CLIENT_SECRET_PREFIX)) {
    throw new OAuthError("invalid_client", "client authentication failed");
  }
  const client = await db().oAuthClient.findUnique({
    where: { clientId },
    include: { partner: { select: { suspendedAt: true } } },
  });
  const secretMatches = client !== null && safeEqualHex(sha256Hex(clientSecret), client.secretHash);
  if (!client || !secretMatches || client.revokedAt || client.partner.suspendedAt) {
    await countFailure(client?.id ?? null, clientAddress);
    throw new OAuthError("invalid_client", "client authentication failed");
  }
  const limit = env().OAUTH_TOKEN_RATE_LIMIT_PER_CLIENT;
  const result = await consumeRateLimit(`oauth-client:${client.id}`, limit, 60);
  if (!result.allowed) {
    throw new OAuthRateLimited(
      result.retryAfterSeconds,
      `at most ${limit} token requests a minute for this client; retry after ${result.retryAfterSeconds} s`,
    );
  }
  const accessToken = generateSecret(ACCESS_TOKEN_PREFIX);
  const expiresIn = env().OAUTH_TOKEN_TTL_SECONDS;
  // At most OAUTH_MAX_LIVE_TOKENS_PER_CLIENT live tokens: the new one is issued and the oldest beyond the
  // bound revoked, rather than refusing, so a sender that lost its token (or runs several workers) always
  // gets a working one; only a token older than its N successors stops working before its expiry.
  const maxLive = env().OAUTH_MAX_LIVE_TOKENS_PER_CLIENT;
  await db().$transaction([
    db().oAuthToken.create({
      data: {
        id: newId("tok"),
        clientId: client.id,
        hash: sha256Hex(accessToken),
        expiresAt: new Date(Date.now() + expiresIn * 1000),
      },
    }),
    prismaStatement(deleteOAuthTokensBeyond(client.id, maxLive)),
  ]);
  // Expired tokens are useless; sweeping a few on each issue keeps the table small without a cron.
  await deleteExpiredOAuthTokens().execute();
  return { accessToken, expiresIn };
}

export type BearerSender = { partnerId: string; npis: string[]; oauthClientId: string };

export async function findSenderByBearerToken(token: string): Promise<BearerSender | null> {
  if (!hasValidChecksum(token, ACCESS_TOKEN_PREFIX)) return null;
  const rows = await selectSenderByTokenHash(sha256Hex(token)).execute();
  const row = rows[0];
  return row ? { partnerId: row.partner_id, npis: row.npis, oauthClientId: row.client_id } : null;
}
