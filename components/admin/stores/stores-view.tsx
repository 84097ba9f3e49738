"use client";
// This pharmacy's stores: the NPIs an incoming transfer may name as receivingPharmacy. A request naming any
// other NPI is refused as INVALID_INFO. The store configured in the environment (PHARMACY_NPI) is listed
// but can only be changed there, except for its drug rules and alerts.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, messageOf } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { AddStoreForm } from "@/components/admin/stores/add-store-form";
import { StoreAlertDialog, useStoreAlerts } from "@/components/admin/stores/store-alert-dialog";
import { useStoresRefresh, type StoreRow } from "@/components/admin/stores/store-row";
import { StoreRulesDialog, useStoreRules } from "@/components/admin/stores/store-rules-dialog";
import { StoresTable } from "@/components/admin/stores/stores-table";
import { useConfirmedAction } from "@/components/admin/use-confirmed-action";

export type { StoreRow } from "@/components/admin/stores/store-row";

export function StoresView({ initial }: { initial: StoreRow[] }) {
  const refresh = useStoresRefresh();
  const query = useQuery({
    queryKey: ["admin", "stores"],
    queryFn: () => apiFetch<{ stores: StoreRow[] }>("/api/admin/stores", { background: true }).then((r) => r.stores),
    initialData: initial,
  });
  const [status, setStatus] = useState("");
  const rules = useStoreRules(setStatus);
  const alerts = useStoreAlerts(setStatus);
  const remove = useConfirmedAction({
    run: (store: StoreRow) => apiFetch(`/api/admin/stores/${store.storeId}`, { method: "DELETE" }),
    onDone: async (_data, store) => {
      setStatus(`Store ${store.name} removed: transfers naming NPI ${store.npi} are refused from now on.`);
      await refresh();
    },
  });
  return (
    <div className="space-y-3">
      <div className="flex items-baseline justify-between">
        <h1 className="text-lg font-semibold">Stores</h1>
        <p className="text-xs text-slate-500">Incoming transfers must name one of these as receivingPharmacy</p>
      </div>
      <AddStoreForm onAdded={setStatus} />
      <StatusMessage className="rounded border border-emerald-200 bg-emerald-50 px-2 py-1">{status}</StatusMessage>
      {query.error && <ErrorMessage>The stores could not be refreshed: {messageOf(query.error)}</ErrorMessage>}
      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <StoresTable
          stores={query.data}
          act={{ rules: rules.action.ask, alerts: alerts.action.ask, remove: remove.ask }}
        />
      </div>
      <StoreRulesDialog change={rules} />
      <StoreAlertDialog change={alerts} />
      <ConfirmDialog
        {...remove.dialog}
        title={`Remove store ${remove.target?.name ?? ""}?`}
        description={`Transfers naming NPI ${remove.target?.npi ?? ""} as the receiving pharmacy will be refused (INVALID_INFO). Transfers already received stay.`}
        confirmLabel="Remove store"
        pendingLabel="Removing…"
      />
    </div>
  );
}
