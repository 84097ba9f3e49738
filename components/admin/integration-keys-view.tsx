"use client";
// Integration keys: the credentials of the pharmacy's dispensing system (its interface engine) for the feed
// of approved transfers, GET /api/integration/transfers. Created here, shown once, revocable at once.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, submitShowingErrors } from "@/components/admin/api";
import { useConfirmedAction } from "@/components/admin/use-confirmed-action";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { Field } from "@/components/ui/field";
import { StatusMessage } from "@/components/admin/notices";
import { SecretPanel } from "@/components/admin/secret-panel";
import { SortHeader, useSort } from "@/components/admin/sortable";
import { TABLE_CLASS, TD_CLASS, TH_CLASS, THEAD_CLASS, TR_CLASS } from "@/components/ui/table";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CreateIntegrationKeyInputSchema } from "@/lib/integration/integration-key-input";
import type { CreatedIntegrationKey, IntegrationKeySummary } from "@/lib/integration/integration-keys";

const SORT_COLUMNS = {
  name: (k: IntegrationKeySummary) => k.name.toLowerCase(),
  createdAt: (k: IntegrationKeySummary) => k.createdAt,
  lastUsedAt: (k: IntegrationKeySummary) => k.lastUsedAt,
};

export function IntegrationKeysView({ initial }: { initial: IntegrationKeySummary[] }) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedIntegrationKey | null>(null);
  const [status, setStatus] = useState("");
  const query = useQuery({
    queryKey: ["admin", "integration-keys"],
    queryFn: () =>
      apiFetch<{ keys: IntegrationKeySummary[] }>("/api/admin/integration-keys", { background: true }).then(
        (r) => r.keys,
      ),
    initialData: initial,
  });
  const { sorted, sort, toggle } = useSort(query.data, SORT_COLUMNS, { key: "createdAt", dir: "descending" });
  const form = useSchemaForm(CreateIntegrationKeyInputSchema, { defaultValues: { name: "" } });
  const submit = submitShowingErrors(form, ["name"], async (input) => {
    setCreated(await apiFetch<CreatedIntegrationKey>("/api/admin/integration-keys", { method: "POST", body: input }));
    form.reset();
    await queryClient.invalidateQueries({ queryKey: ["admin", "integration-keys"] });
  });
  const revoke = useConfirmedAction({
    run: (key: IntegrationKeySummary) =>
      apiFetch(`/api/admin/integration-keys/${encodeURIComponent(key.keyId)}/revoke`, { method: "POST" }),
    onDone: async (_data, key) => {
      setStatus(`Integration key ${key.keyId} revoked: it stops working at once.`);
      await queryClient.invalidateQueries({ queryKey: ["admin", "integration-keys"] });
    },
  });

  return (
    <div className="space-y-3">
      <h1 className="text-lg font-semibold">Integration keys</h1>
      <p className="max-w-3xl text-slate-700">
        A dispensing system reads approved transfers as FHIR R4 Bundles from <code>GET /api/integration/transfers</code>{" "}
        with one of these keys (<code>Authorization: Bearer rxi_…</code>). See /docs, “Connecting your dispensing
        system”.
      </p>
      {created && (
        <SecretPanel
          title={`Integration key for ${created.name}`}
          secrets={[{ label: "Integration key", value: created.integrationKey }]}
          onDone={() => setCreated(null)}
        />
      )}
      <form
        noValidate
        onSubmit={submit}
        aria-labelledby="new-integration-key"
        className="flex flex-wrap items-end gap-2 rounded border border-slate-200 bg-white p-3"
      >
        <h2 id="new-integration-key" className="w-full font-semibold">
          Create an integration key
        </h2>
        <Field
          label="System name"
          error={form.formState.errors.name?.message ?? form.formState.errors.root?.server?.message}
          hint="Which system will use it, e.g. “PioneerRx interface engine”."
          className="min-w-64 flex-1"
        >
          {(f) => <input {...f} autoComplete="off" {...form.register("name")} />}
        </Field>
        <Button type="submit" variant="primary" disabled={form.formState.isSubmitting}>
          Create key
        </Button>
      </form>
      <StatusMessage>{status}</StatusMessage>
      <div className="overflow-x-auto">
        <table className={TABLE_CLASS}>
          <caption className="sr-only">Integration keys</caption>
          <thead className={THEAD_CLASS}>
            <tr>
              <SortHeader label="System" column="name" sort={sort} onSort={toggle} />
              <th scope="col" className={TH_CLASS}>
                Key
              </th>
              <SortHeader label="Created" column="createdAt" sort={sort} onSort={toggle} />
              <SortHeader label="Last used" column="lastUsedAt" sort={sort} onSort={toggle} />
              <th scope="col" className={TH_CLASS}>
                Status
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.length === 0 && (
              <tr>
                <td colSpan={5} className={TD_CLASS}>
                  No integration keys yet.
                </td>
              </tr>
            )}
            {sorted.map((k) => (
              <tr key={k.keyId} className={TR_CLASS}>
                <td className={TD_CLASS}>{k.name}</td>
                <td className={`${TD_CLASS} font-mono text-xs`}>
                  {k.prefix}…{k.last4}
                </td>
                <td className={TD_CLASS}>{k.createdAt.slice(0, 16).replace("T", " ")}</td>
                <td className={TD_CLASS}>{k.lastUsedAt ? k.lastUsedAt.slice(0, 16).replace("T", " ") : "never"}</td>
                <td className={TD_CLASS}>
                  {k.revokedAt ? (
                    <Badge tone="red">Revoked</Badge>
                  ) : (
                    <Button variant="danger" onClick={() => revoke.ask(k)}>
                      Revoke<span className="sr-only"> {k.name}</span>
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        {...revoke.dialog}
        title={`Revoke the integration key of ${revoke.target?.name ?? ""}?`}
        description="The system using it can no longer read the feed; this cannot be undone (create a new key instead)."
        confirmLabel="Revoke key"
      />
    </div>
  );
}
