"use client";
// OAuth clients: create one (its secret shown once), revoke one (its tokens end at once).
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, messageOf } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { Section, type Shown } from "@/components/admin/partner/section";
import { usePartnerRefresh } from "@/components/admin/partner/use-partner-refresh";
import { useConfirmedAction } from "@/components/admin/use-confirmed-action";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { TABLE_CLASS, TableHead, TD_CLASS, TR_CLASS } from "@/components/ui/table";
import type { OAuthClientInfo, PartnerDetails } from "@/lib/partners/partner-views";

function ClientsTable({ p, onRevoke }: { p: PartnerDetails; onRevoke: (client: OAuthClientInfo) => void }) {
  return (
    <div className="overflow-x-auto">
      <table className={TABLE_CLASS}>
        <caption className="sr-only">OAuth clients of {p.name}</caption>
        <TableHead columns={["Client ID", "Status", "Created"]} actions />
        <tbody>
          {p.oauthClients.map((c) => (
            <tr key={c.clientId} className={TR_CLASS}>
              <td className={`${TD_CLASS} font-mono`}>{c.clientId}</td>
              <td className={TD_CLASS}>
                {c.state === "active" ? (
                  <Badge tone="green">Active</Badge>
                ) : (
                  <Badge tone="red">Revoked {c.revokedAt && <LocalTime iso={c.revokedAt} style="date" />}</Badge>
                )}
              </td>
              <td className={TD_CLASS}>
                <LocalTime iso={c.createdAt} />
              </td>
              <td className={`${TD_CLASS} text-right`}>
                {c.state === "active" && (
                  <Button variant="danger" onClick={() => onRevoke(c)}>
                    Revoke<span className="sr-only"> OAuth client {c.clientId}</span>
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {p.oauthClients.length === 0 && <p className="px-2 py-3 text-slate-600">No OAuth clients.</p>}
    </div>
  );
}

export function OAuthClientsSection({ p, onShow }: { p: PartnerDetails; onShow: (shown: Shown) => void }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [status, setStatus] = useState("");
  // Creating asks nothing: the new client harms no one until the partner is given its secret.
  const create = useMutation({
    mutationFn: () =>
      apiFetch<{ clientId: string; clientSecret: string }>(`/api/admin/partners/${p.partnerId}/oauth-clients`, {
        method: "POST",
      }),
    onSuccess: async (client) => {
      onShow({
        title: `New OAuth client for ${p.name}`,
        secrets: [
          { label: "OAuth client ID", value: client.clientId, isSecret: false },
          { label: "OAuth client secret", value: client.clientSecret },
        ],
        note: <p>The partner trades these for short-lived bearer tokens at POST /oauth/token (client credentials).</p>,
      });
      await refresh();
    },
  });
  const revoke = useConfirmedAction({
    run: (client: OAuthClientInfo) =>
      apiFetch(`/api/admin/oauth-clients/${client.clientId}/revoke`, { method: "POST" }),
    onDone: async (_data, client) => {
      setStatus(`OAuth client ${client.clientId} revoked; its tokens no longer work.`);
      await refresh();
    },
  });
  return (
    <Section
      id="oauth-heading"
      title="OAuth clients"
      description="Client credentials for bearer tokens. Revoking a client ends its tokens at once."
    >
      <div className="flex items-center gap-2">
        <Button variant="primary" onClick={() => create.mutate()} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create OAuth client"}
        </Button>
        <StatusMessage>{status}</StatusMessage>
      </div>
      {create.error && <ErrorMessage>{messageOf(create.error)}</ErrorMessage>}
      <ClientsTable p={p} onRevoke={revoke.ask} />
      <ConfirmDialog
        {...revoke.dialog}
        title={`Revoke OAuth client ${revoke.target?.clientId ?? ""}?`}
        description="The client can no longer get tokens, and every token it already has stops working at once."
        confirmLabel="Revoke client"
        pendingLabel="Revoking…"
      />
    </Section>
  );
}
