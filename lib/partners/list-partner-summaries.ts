// Every sending partner at a glance, for the admin partners list: recent traffic, callback health, how many
// live keys and OAuth clients.
import { db } from "@/lib/db/prisma";
import { apiKeyStateOf, callbacksOf, EMPTY_TRAFFIC, partnerBasics, trafficOf } from "@/lib/partners/partner-stats";
import type { PartnerSummary } from "@/lib/partners/partner-views";

export async function listPartnerSummaries(): Promise<PartnerSummary[]> {
  const now = new Date();
  const partners = await db().partner.findMany({
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      name: true,
      npis: true,
      callbackUrl: true,
      suspendedAt: true,
      createdAt: true,
      callbackFailingSince: true,
      callbackGoneAt: true,
      apiKeys: { select: { revokedAt: true, expiresAt: true } },
      oauthClients: { select: { revokedAt: true } },
    },
  });
  const stats = await trafficOf(partners.map((p) => p.id));
  return partners.map((p) => ({
    ...partnerBasics(p),
    activeKeys: p.apiKeys.filter((k) => apiKeyStateOf(k, now) === "active").length,
    activeClients: p.oauthClients.filter((c) => !c.revokedAt).length,
    traffic: stats.get(p.id)?.traffic ?? { ...EMPTY_TRAFFIC },
    callbacks: callbacksOf(p, stats.get(p.id), now),
  }));
}
