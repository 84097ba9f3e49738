// What the admin screens show about sending partners, as types only: the server reads fill them
// (list-partner-summaries.ts, get-partner-details.ts) and the client components render them. Secrets never
// appear here: keys show as prefix…last4, the outbound credential by its header name only.
import type { PartnerAnswerRate } from "@/lib/partners/failure-rate";

export type PartnerTraffic = { last24h: number; last7d: number; lastReceivedAt: string | null };

export type PartnerCallbacks = {
  /** The endpoint's state from the partner's flags (lib/callbacks/callback-health.ts). */
  state: "ok" | "failing" | "gone";
  isFlagged: boolean;
  since: string | null;
  /** Callbacks created in the last 7 days, by outcome. */
  /** refused: the sender's callback API answered RX_CALLBACK_ERROR. */
  last7d: { delivered: number; pending: number; retrying: number; failed: number; gone: number; refused: number };
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

/** A callback the sender refused (RX_CALLBACK_ERROR), for the partner's page. */
export type RefusedCallback = {
  referenceID: string;
  /** When the refusing answer came. */
  at: string;
  /** The sender's error.type and error.description, as the callback's last error. */
  reason: string | null;
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
  /** The last hour's /v1 answers as the sender counts them against its 50 % cut-off (lib/partners/failure-rate.ts). */
  answerRate: PartnerAnswerRate;
  /** The latest callbacks in status REFUSED (at most 20), newest first. */
  refusedCallbacks: RefusedCallback[];
  serverTime: string;
};
