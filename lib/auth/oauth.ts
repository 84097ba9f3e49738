// OAuth 2.0 client credentials (RFC 6749 §4.4): partners trade a client id and secret for a short-lived
// bearer token. Tokens are opaque, stored as SHA-256, and die with their client. Token requests are rate
// limited per client, and a client holds a bounded number of live tokens.
import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { newId, randomBase62 } from "@/lib/ids";
import { generateSecret, hasValidChecksum, safeEqualHex, sha256Hex } from "@/lib/auth/secrets";
import { consumeRateLimit } from "@/lib/rate-limit/consume-rate-limit";

export const CLIENT_SECRET_PREFIX = "rxs";
export const ACCESS_TOKEN_PREFIX = "rxt";

export type CreatedOAuthClient = { id: string; clientId: string; clientSecret: string };

/** With an actor, audited; with a transaction, inside it (the caller's change and this client commit together). */
export async function createOAuthClient(partnerId: string, actor?: Actor, tx?: Prisma.TransactionClient): Promise<CreatedOAuthClient> {
  const clientId = `cli_${randomBase62(24)}`;
  const clientSecret = generateSecret(CLIENT_SECRET_PREFIX);
  const create = async (t: Prisma.TransactionClient) => {
    const row = await t.oAuthClient.create({
      data: { id: newId("cli"), partnerId, clientId, secretHash: sha256Hex(clientSecret) },
    });
    if (actor) {
      await recordAuditEvent({ userId: actor.userId, actor: actor.label, action: "oauth_client.created", clientAddress: actor.clientAddress, details: { clientId, partnerId } }, t);
    }
    return row;
  };
  const row = tx ? await create(tx) : await db().$transaction(create);
  return { id: row.id, clientId, clientSecret };
}

/** Revokes the client and, with it, every token it was issued; audited in the same transaction. */
export async function revokeOAuthClient(clientId: string, actor: Actor = SYSTEM_ACTOR): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const [client] = await tx.$queryRaw<{ id: string; partner_id: string; revoked_at: Date | null }[]>`
      SELECT id, partner_id, revoked_at FROM oauth_clients WHERE client_id = ${clientId} FOR UPDATE`;
    if (!client) return false;
    await tx.oAuthClient.update({ where: { id: client.id }, data: { revokedAt: client.revoked_at ?? new Date() } });
    await tx.oAuthToken.deleteMany({ where: { clientId: client.id } });
    await recordAuditEvent({ userId: actor.userId, actor: actor.label, action: "oauth_client.revoked", clientAddress: actor.clientAddress, details: { clientId, partnerId: client.partner_id } }, tx);
    return true;
  });
}

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

export async function issueAccessToken(clientId: string, clientSecret: string): Promise<IssuedToken> {
  const client = await db().oAuthClient.findUnique({
    where: { clientId },
    include: { partner: { select: { suspendedAt: true } } },
  });
  // Counted per known client only (an unknown id would otherwise make a bucket per guess), before the
  // secret check, so failures count too. Per-address limits are the route's (lib/http/oauth-token.ts).
  if (client) {
    const limit = env().OAUTH_TOKEN_RATE_LIMIT_PER_CLIENT;
    const result = await consumeRateLimit(`oauth-client:${client.id}`, limit, 60);
    if (!result.allowed) {
      throw new OAuthRateLimited(result.retryAfterSeconds, `at most ${limit} token requests a minute for this client; retry after ${result.retryAfterSeconds} s`);
    }
  }
  const secretMatches =
    client !== null &&
    hasValidChecksum(clientSecret, CLIENT_SECRET_PREFIX) &&
    safeEqualHex(sha256Hex(clientSecret), client.secretHash);
  if (!client || !secretMatches || client.revokedAt || client.partner.suspendedAt) {
    throw new OAuthError("invalid_client", "client authentication failed");
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
    db().$executeRaw`
      DELETE FROM oauth_tokens WHERE id IN (
        SELECT id FROM oauth_tokens WHERE client_id = ${client.id} AND expires_at > now()
         ORDER BY created_at DESC, id DESC OFFSET ${maxLive})`,
  ]);
  // Expired tokens are useless; sweeping a few on each issue keeps the table small without a cron.
  await db().$executeRaw`
    DELETE FROM oauth_tokens WHERE id IN (
      SELECT id FROM oauth_tokens WHERE expires_at < now() - interval '1 hour' LIMIT 100)`;
  return { accessToken, expiresIn };
}

export type BearerSender = { partnerId: string; npis: string[]; oauthClientId: string };

export async function findSenderByBearerToken(token: string): Promise<BearerSender | null> {
  if (!hasValidChecksum(token, ACCESS_TOKEN_PREFIX)) return null;
  const rows = await db().$queryRaw<{ partner_id: string; npis: string[]; client_id: string }[]>`
    SELECT c.partner_id, p.npis, c.id AS client_id
      FROM oauth_tokens t
      JOIN oauth_clients c ON c.id = t.client_id
      JOIN partners p ON p.id = c.partner_id
     WHERE t.hash = ${sha256Hex(token)}
       AND t.expires_at > now()
       AND c.revoked_at IS NULL
       AND p.suspended_at IS NULL`;
  const row = rows[0];
  return row ? { partnerId: row.partner_id, npis: row.npis, oauthClientId: row.client_id } : null;
}
