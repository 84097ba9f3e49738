// Every sending partner with its API keys and OAuth clients (prefix…last4 only), as `partner list` prints them.
import { db } from "@/lib/db/prisma";
import { partnerBasics } from "@/lib/partners/partner-stats";

export async function listPartners() {
  const partners = await db().partner.findMany({
    orderBy: { createdAt: "asc" },
    include: {
      apiKeys: {
        select: {
          id: true,
          prefix: true,
          last4: true,
          createdAt: true,
          lastUsedAt: true,
          expiresAt: true,
          revokedAt: true,
        },
      },
      oauthClients: { select: { clientId: true, createdAt: true, revokedAt: true } },
    },
  });
  return partners.map((p) => ({
    ...partnerBasics(p),
    apiKeys: p.apiKeys.map((k) => ({
      keyId: k.id,
      display: `${k.prefix}…${k.last4}`,
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      expiresAt: k.expiresAt?.toISOString() ?? null,
      revoked: k.revokedAt !== null,
    })),
    oauthClients: p.oauthClients.map((c) => ({
      clientId: c.clientId,
      createdAt: c.createdAt.toISOString(),
      revoked: c.revokedAt !== null,
    })),
  }));
}
