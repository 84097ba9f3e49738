// Everything about one sending partner, for its admin page; keys as prefix…last4, the outbound credential by
// its header name only.
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { readPartnerAnswerRate } from "@/lib/partners/partner-answer-counts";
import { apiKeyStateOf, callbacksOf, EMPTY_TRAFFIC, partnerBasics, trafficOf } from "@/lib/partners/partner-stats";
import type { PartnerDetails } from "@/lib/partners/partner-views";

export async function getPartnerDetails(partnerId: string): Promise<PartnerDetails> {
  const now = new Date();
  const p = await db().partner.findUnique({
    where: { id: partnerId },
    include: {
      apiKeys: { orderBy: { createdAt: "desc" } },
      oauthClients: { orderBy: { createdAt: "desc" } },
    },
  });
  if (!p) throw new DomainError("not_found", `no partner ${partnerId}`);
  const [traffic, answerRate, refused] = await Promise.all([
    trafficOf([p.id]),
    readPartnerAnswerRate(p.id),
    db().callback.findMany({
      where: { partnerId: p.id, status: "REFUSED" },
      orderBy: { createdAt: "desc" },
      take: 20,
      select: { transferId: true, lastError: true, attempts: { orderBy: { attemptNumber: "desc" }, take: 1 } },
    }),
  ]);
  const stats = traffic.get(p.id);
  const previousValid = p.previousWebhookSecret && p.previousSecretExpiresAt && p.previousSecretExpiresAt > now;
  return {
    ...partnerBasics(p),
    suspendedAt: p.suspendedAt?.toISOString() ?? null,
    outboundHeaderName: p.outboundHeaderName,
    previousSecretExpiresAt: previousValid ? p.previousSecretExpiresAt!.toISOString() : null,
    callbackPrivateNetworksAllowed: env().CALLBACK_ALLOW_PRIVATE_NETWORKS,
    traffic: stats?.traffic ?? { ...EMPTY_TRAFFIC },
    callbacks: callbacksOf(p, stats, now),
    answerRate,
    refusedCallbacks: refused.map((c) => ({
      referenceID: c.transferId,
      at: (c.attempts[0]?.startedAt ?? now).toISOString(),
      reason: c.lastError,
    })),
    apiKeys: p.apiKeys.map((k) => ({
      keyId: k.id,
      display: `${k.prefix}…${k.last4}`,
      state: apiKeyStateOf(k, now),
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      expiresAt: k.expiresAt?.toISOString() ?? null,
      revokedAt: k.revokedAt?.toISOString() ?? null,
    })),
    oauthClients: p.oauthClients.map((c) => ({
      clientId: c.clientId,
      state: c.revokedAt ? "revoked" : "active",
      createdAt: c.createdAt.toISOString(),
      revokedAt: c.revokedAt?.toISOString() ?? null,
    })),
    serverTime: now.toISOString(),
  };
}
