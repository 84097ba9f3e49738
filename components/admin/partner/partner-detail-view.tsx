"use client";
// One sending partner: traffic and callback health, its profile (name, NPIs), callback URL, outbound
// credential, webhook secret, API keys and OAuth clients, one file a section in this folder. New secrets are
// shown once in a panel at the top; destructive actions are confirmed in a dialog first.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, messageOf } from "@/components/admin/api";
import { ErrorMessage } from "@/components/admin/notices";
import { ApiKeysSection } from "@/components/admin/partner/api-keys-section";
import { CallbackUrlForm } from "@/components/admin/partner/callback-url-form";
import { OAuthClientsSection } from "@/components/admin/partner/oauth-clients-section";
import { OutboundCredentialForm } from "@/components/admin/partner/outbound-credential-form";
import { PartnerHeader } from "@/components/admin/partner/partner-header";
import { ProfileForm } from "@/components/admin/partner/profile-form";
import type { Shown } from "@/components/admin/partner/section";
import { TrafficSection } from "@/components/admin/partner/traffic-section";
import { WebhookSecretSection } from "@/components/admin/partner/webhook-secret-section";
import { SenderViewSection } from "@/components/admin/partner/sender-view-section";
import { SecretPanel } from "@/components/admin/secret-panel";
import type { PartnerDetails } from "@/lib/partners/partner-views";

/** `callbackUrlHint`: what this server's mode allows (lib/partners/npi-policy.ts), from the page. */
export function PartnerDetailView({ initial, callbackUrlHint }: { initial: PartnerDetails; callbackUrlHint: string }) {
  const query = useQuery({
    queryKey: ["admin", "partner", initial.partnerId],
    queryFn: () => apiFetch<PartnerDetails>(`/api/admin/partners/${initial.partnerId}`, { background: true }),
    initialData: initial,
    refetchInterval: 30_000,
  });
  const p = query.data;
  const [shown, setShown] = useState<Shown | null>(null);
  return (
    <div className="space-y-3">
      <PartnerHeader p={p} />
      {query.error && <ErrorMessage>This partner could not be refreshed: {messageOf(query.error)}</ErrorMessage>}
      {shown && (
        <SecretPanel
          key={shown.secrets.map((s) => s.value).join(" ")}
          title={shown.title}
          secrets={shown.secrets}
          onDone={() => setShown(null)}
        >
          {shown.note}
        </SecretPanel>
      )}
      <TrafficSection p={p} />
      <SenderViewSection p={p} />
      <ApiKeysSection p={p} onShow={setShown} />
      <OAuthClientsSection p={p} onShow={setShown} />
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        <CallbackUrlForm p={p} hint={callbackUrlHint} />
        <ProfileForm p={p} />
      </div>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        <OutboundCredentialForm p={p} />
        <WebhookSecretSection p={p} onShow={setShown} />
      </div>
    </div>
  );
}
