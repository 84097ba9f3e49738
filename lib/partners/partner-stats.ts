// The pieces the partner reads share: each partner's recent traffic and callback outcomes (one query each
// for any number of partners), its callback endpoint's state, a key's state, and the basics every listing
// shows first.
import { partnerCallbackHealth } from "@/lib/callbacks/callback-health";
import { npiWarningFor } from "@/lib/partners/npi-policy";
import type { ApiKeyState, PartnerCallbacks, PartnerTraffic } from "@/lib/partners/partner-views";
import { selectPartnerCallbackCounts, selectPartnerTraffic } from "@/lib/partners/sql";

/** What every partner listing shows first, whatever else it adds. */
export function partnerBasics(p: {
  id: string;
  name: string;
  npis: string[];
  callbackUrl: string;
  suspendedAt: Date | null;
  createdAt: Date;
}) {
  return {
    partnerId: p.id,
    name: p.name,
    npis: p.npis,
    /** Set when the partner has no NPI allow-list (lib/partners/npi-policy.ts). */
    npiWarning: npiWarningFor(p.npis),
    callbackUrl: p.callbackUrl,
    suspended: p.suspendedAt !== null,
    createdAt: p.createdAt.toISOString(),
  };
}

export const EMPTY_TRAFFIC: PartnerTraffic = { last24h: 0, last7d: 0, lastReceivedAt: null };
const EMPTY_CALLBACKS: PartnerCallbacks["last7d"] = {
  delivered: 0,
  pending: 0,
  retrying: 0,
  failed: 0,
  gone: 0,
  refused: 0,
};

/** Counts over the (partner_id, received_at) and (partner_id, created_at) indexes, one row per partner. */
export async function trafficOf(
  partnerIds: string[],
): Promise<
  Map<string, { traffic: PartnerTraffic; callbacks: PartnerCallbacks["last7d"]; lastDeliveredAt: string | null }>
> {
  const out = new Map<
    string,
    { traffic: PartnerTraffic; callbacks: PartnerCallbacks["last7d"]; lastDeliveredAt: string | null }
  >();
  if (partnerIds.length === 0) return out;
  const traffic = await selectPartnerTraffic(partnerIds).execute();
  const callbacks = await selectPartnerCallbackCounts(partnerIds).execute();
  for (const t of traffic) {
    out.set(t.id, {
      traffic: {
        last24h: t.last24h ?? 0,
        last7d: t.last7d ?? 0,
        lastReceivedAt: t.last_received_at?.toISOString() ?? null,
      },
      callbacks: { ...EMPTY_CALLBACKS },
      lastDeliveredAt: null,
    });
  }
  for (const c of callbacks) {
    const entry = out.get(c.partner_id);
    if (!entry) continue;
    entry.callbacks = {
      delivered: c.delivered,
      pending: c.pending,
      retrying: c.retrying,
      failed: c.failed,
      gone: c.gone,
      refused: c.refused,
    };
    entry.lastDeliveredAt = c.last_delivered_at?.toISOString() ?? null;
  }
  return out;
}

export function callbacksOf(
  partner: { callbackFailingSince: Date | null; callbackGoneAt: Date | null },
  stats: { callbacks: PartnerCallbacks["last7d"]; lastDeliveredAt: string | null } | undefined,
  now: Date,
): PartnerCallbacks {
  const health = partnerCallbackHealth(partner, now);
  return {
    state: health.state,
    isFlagged: health.isFlagged,
    since: health.since?.toISOString() ?? null,
    last7d: stats?.callbacks ?? { ...EMPTY_CALLBACKS },
    lastDeliveredAt: stats?.lastDeliveredAt ?? null,
  };
}

export function apiKeyStateOf(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): ApiKeyState {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}
