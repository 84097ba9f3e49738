// What the admin screens show about sending partners, as types only: the server reads fill them
// (list-partner-summaries.ts, get-partner-details.ts) and the client components render them. Secrets never
// appear here: keys show as prefix…last4, the outbound credential by its header name only.

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
