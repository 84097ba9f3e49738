// OAuth 2.0 client credentials (RFC 6749 §4.4): partners trade a client id and secret for a short-lived
// bearer token. Tokens are opaque, stored as SHA-256, and die with their client.
import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { newId, randomBase62 } from "@/lib/ids";
import { generateSecret, hasValidChecksum, safeEqualHex, sha256Hex } from "@/lib/auth/secrets";

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

export type IssuedToken = { accessToken: string; expiresIn: number };

export async function issueAccessToken(clientId: string, clientSecret: string): Promise<IssuedToken> {
  const client = await db().oAuthClient.findUnique({
    where: { clientId },
    include: { partner: { select: { suspendedAt: true } } },
  });
  const secretMatches =
    client !== null &&
    hasValidChecksum(clientSecret, CLIENT_SECRET_PREFIX) &&
    safeEqualHex(sha256Hex(clientSecret), client.secretHash);
  if (!client || !secretMatches || client.revokedAt || client.partner.suspendedAt) {
    throw new OAuthError("invalid_client", "client authentication failed");
  }
  const accessToken = generateSecret(ACCESS_TOKEN_PREFIX);
  const expiresIn = env().OAUTH_TOKEN_TTL_SECONDS;
  await db().oAuthToken.create({
    data: {
      id: newId("tok"),
      clientId: client.id,
      hash: sha256Hex(accessToken),
      expiresAt: new Date(Date.now() + expiresIn * 1000),
    },
  });
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
