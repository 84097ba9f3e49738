"use client";
// Suspend (confirmed first: its keys and tokens are refused at once) or resume (at once) a partner.
import { apiFetch } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { usePartnerRefresh } from "@/components/admin/partner/use-partner-refresh";
import { useConfirmedAction } from "@/components/admin/use-confirmed-action";
import { Button } from "@/components/ui/button";
import type { PartnerDetails } from "@/lib/partners/partner-views";
import { useState } from "react";

export function SuspensionControl({ p }: { p: PartnerDetails }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [status, setStatus] = useState("");
  const change = useConfirmedAction({
    run: (suspended: boolean) =>
      apiFetch(`/api/admin/partners/${p.partnerId}/suspension`, { method: "PUT", body: { suspended } }),
    onDone: async (_data, suspended) => {
      setStatus(suspended ? `${p.name} is suspended: its keys and tokens are refused.` : `${p.name} is active again.`);
      await refresh();
    },
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      {p.suspended ? (
        <Button onClick={() => change.runNow(false)} disabled={change.pending}>
          Resume partner
        </Button>
      ) : (
        <Button variant="danger" onClick={() => change.ask(true)}>
          Suspend partner
        </Button>
      )}
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{change.errorOutside}</ErrorMessage>
      <ConfirmDialog
        {...change.dialog}
        title={`Suspend ${p.name}?`}
        description="Its API keys and OAuth bearer tokens are refused at once (401) until you resume it. Nothing is deleted."
        confirmLabel="Suspend partner"
        pendingLabel="Suspending…"
      />
    </div>
  );
}
