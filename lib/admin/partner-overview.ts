// What the admin screens show about sending partners: each one's recent traffic and callback health at a
// glance (the list), and everything about one (the details page). Secrets never leave the database here:
// keys show as prefix…last4, the outbound credential by its header name only.
import { partnerCallbackHealth } from "@/lib/callbacks/callback-health";
import { db } from "@/lib/db/prisma";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { partnerBasics } from "@/lib/partners/create-partner";

export type PartnerTraffic = { last24h: number; last7d: number; lastReceivedAt: string | null };

export type PartnerCallbacks = {
  /** The endpoint's state from the partner's flags (lib/callbacks/callback-health.ts). */
  state: "ok" | "failing" | "gone";
  isFlagged: boolean;
  since: string | null;
  /** Callbacks created in the last 7 days, by outcome. */
  last7d: { delivered: number; pending: number; retrying: number; failed: number; gone: number };
  lastDeliveredAt: string | null;
};

export type PartnerSummary = {
  partnerId: string;
  name: string;
  npis: string[];
  /** Shown when the partner has no NPI allow-list (lib/partners/npi-policy.ts). */
  npiWarning: string | null;
  callbackUrl: string;
  suspended: boolean;
  createdAt: string;
  activeKeys: number;
  activeClients: number;
  traffic: PartnerTraffic;
  callbacks: PartnerCallbacks;
};

export type ApiKeyState = "active" | "expired" | "revoked";

export type ApiKeyInfo = {
  keyId: string;
  /** prefix…last4: all a person ever sees of a key after it was shown once. */
  display: string;
  state: ApiKeyState;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
};

export type OAuthClientInfo = {
  clientId: string;
  state: "active" | "revoked";
  createdAt: string;
  revokedAt: string | null;
};

export type PartnerDetails = Omit<PartnerSummary, "activeKeys" | "activeClients"> & {
  suspendedAt: string | null;
  /** The partner's own credential on our callbacks: its header name; the value is sealed and never shown. */
  outboundHeaderName: string | null;
  /** Set while a rotated-out webhook secret still signs callbacks alongside the current one. */
  previousSecretExpiresAt: string | null;
  /** CALLBACK_ALLOW_PRIVATE_NETWORKS: whether callback URLs may be loopback or private addresses here. */
  callbackPrivateNetworksAllowed: boolean;
  apiKeys: ApiKeyInfo[];
  oauthClients: OAuthClientInfo[];
  serverTime: string;
};

const EMPTY_TRAFFIC: PartnerTraffic = { last24h: 0, last7d: 0, lastReceivedAt: null };
const EMPTY_CALLBACKS: PartnerCallbacks["last7d"] = { delivered: 0, pending: 0, retrying: 0, failed: 0, gone: 0 };

/** Counts over the (partner_id, received_at) and (partner_id, created_at) indexes, one row per partner. */
async function trafficOf(
  partnerIds: string[],
): Promise<
  Map<string, { traffic: PartnerTraffic; callbacks: PartnerCallbacks["last7d"]; lastDeliveredAt: string | null }>
> {
  const out = new Map<
    string,
    { traffic: PartnerTraffic; callbacks: PartnerCallbacks["last7d"]; lastDeliveredAt: string | null }
  >();
  if (partnerIds.length === 0) return out;
  const traffic = await db().$queryRaw<
    { id: string; last24h: number; last7d: number; last_received_at: Date | null }[]
  >`
    SELECT p.id,
           (SELECT count(*) FROM transfers t WHERE t.partner_id = p.id AND t.received_at > now() - interval '24 hours')::int AS last24h,
           (SELECT count(*) FROM transfers t WHERE t.partner_id = p.id AND t.received_at > now() - interval '7 days')::int AS last7d,
           (SELECT max(t.received_at) FROM transfers t WHERE t.partner_id = p.id) AS last_received_at
      FROM partners p
     WHERE p.id = ANY(${partnerIds}::text[])`;
  const callbacks = await db().$queryRaw<
    {
      partner_id: string;
      delivered: number;
      pending: number;
      retrying: number;
      failed: number;
      gone: number;
      last_delivered_at: Date | null;
    }[]
  >`
    SELECT c.partner_id,
           count(*) FILTER (WHERE c.status = 'DELIVERED')::int AS delivered,
           count(*) FILTER (WHERE c.status = 'PENDING' AND c.last_status_code IS NULL AND c.last_error IS NULL)::int AS pending,
           count(*) FILTER (WHERE c.status = 'PENDING' AND (c.last_status_code IS NOT NULL OR c.last_error IS NOT NULL))::int AS retrying,
           count(*) FILTER (WHERE c.status = 'FAILED')::int AS failed,
           count(*) FILTER (WHERE c.status = 'GONE')::int AS gone,
           max(c.delivered_at) AS last_delivered_at
      FROM callbacks c
     WHERE c.partner_id = ANY(${partnerIds}::text[]) AND c.created_at > now() - interval '7 days'
     GROUP BY c.partner_id`;
  for (const t of traffic) {
    out.set(t.id, {
      traffic: { last24h: t.last24h, last7d: t.last7d, lastReceivedAt: t.last_received_at?.toISOString() ?? null },
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
    };
    entry.lastDeliveredAt = c.last_delivered_at?.toISOString() ?? null;
  }
  return out;
}

function callbacksOf(
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
  const stats = (await trafficOf([p.id])).get(p.id);
  const previousValid = p.previousWebhookSecret && p.previousSecretExpiresAt && p.previousSecretExpiresAt > now;
  return {
    ...partnerBasics(p),
    suspendedAt: p.suspendedAt?.toISOString() ?? null,
    outboundHeaderName: p.outboundHeaderName,
    previousSecretExpiresAt: previousValid ? p.previousSecretExpiresAt!.toISOString() : null,
    callbackPrivateNetworksAllowed: env().CALLBACK_ALLOW_PRIVATE_NETWORKS,
    traffic: stats?.traffic ?? { ...EMPTY_TRAFFIC },
    callbacks: callbacksOf(p, stats, now),
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
