"use client";
// Sending partners: each one's recent traffic and callback health at a glance, and a form to add one. A new
// partner's API key, OAuth client secret and webhook secret are shown once, right after it is created.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type * as z from "zod";
import { apiFetch, messageOf, submitShowingErrors } from "@/components/admin/api";
import { Field } from "@/components/ui/field";
import { callbackHealthText, plural } from "@/components/admin/format";
import { ErrorMessage } from "@/components/admin/notices";
import { SecretPanel } from "@/components/admin/secret-panel";
import { SortHeader, useSort } from "@/components/admin/sortable";
import { TABLE_CLASS, TD_CLASS, TH_CLASS, THEAD_CLASS, TR_CLASS } from "@/components/ui/table";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { CreatePartnerFormSchema } from "@/lib/partners/partner-inputs";
import type { PartnerSummary } from "@/lib/partners/partner-views";
import type { CreatedPartner } from "@/lib/partners/create-partner";

const SORT_COLUMNS = {
  name: (p: PartnerSummary) => p.name.toLowerCase(),
  status: (p: PartnerSummary) => (p.suspended ? 1 : 0),
  last24h: (p: PartnerSummary) => p.traffic.last24h,
  last7d: (p: PartnerSummary) => p.traffic.last7d,
  lastReceived: (p: PartnerSummary) => p.traffic.lastReceivedAt,
  health: (p: PartnerSummary) => (p.callbacks.state === "gone" ? 0 : p.callbacks.state === "failing" ? 1 : 2),
};

function CreatePartnerForm({
  onCreated,
  callbackUrlHint,
  npisHint,
}: {
  onCreated: (created: CreatedPartner & { name: string }) => void;
  callbackUrlHint: string;
  npisHint: string;
}) {
  const queryClient = useQueryClient();
  const form = useSchemaForm(CreatePartnerFormSchema, {
    defaultValues: { name: "", callbackUrl: "", npis: "" },
  });
  const create = useMutation({
    mutationFn: (input: z.output<typeof CreatePartnerFormSchema>) =>
      apiFetch<CreatedPartner>("/api/admin/partners", { method: "POST", body: input }),
  });
  const errors = form.formState.errors;
  const submit = submitShowingErrors(form, ["name", "callbackUrl", "npis"], async (input) => {
    const created = await create.mutateAsync(input);
    form.reset();
    onCreated({ ...created, name: input.name });
    await queryClient.invalidateQueries({ queryKey: ["admin", "partners"] });
  });
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby="new-partner-heading"
      className="space-y-2 rounded border border-slate-200 bg-white p-3"
    >
      <h2 id="new-partner-heading" className="font-semibold">
        Add a partner
      </h2>
      <div className="grid grid-cols-1 gap-2 md:grid-cols-3">
        <Field label="Name" error={errors.name?.message}>
          {(p) => <input {...p} autoComplete="off" {...form.register("name")} />}
        </Field>
        <Field
          label="Callback URL"
          error={errors.callbackUrl?.message}
          hint={`Where CONFIRMED and ERROR callbacks go; must be public (checked). ${callbackUrlHint}`}
        >
          {(p) => (
            <input
              {...p}
              type="url"
              inputMode="url"
              placeholder="https://partner.example/rx-callbacks"
              {...form.register("callbackUrl")}
            />
          )}
        </Field>
        <Field label="Pharmacy NPIs" error={errors.npis?.message} hint={npisHint}>
          {(p) => <input {...p} inputMode="numeric" {...form.register("npis")} />}
        </Field>
      </div>
      <ErrorMessage>{errors.root?.server?.message}</ErrorMessage>
      <Button type="submit" variant="primary" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? "Creating…" : "Create partner"}
      </Button>
    </form>
  );
}

/** The hints say what this server's mode allows (lib/partners/npi-policy.ts); the page computes them. */
export function PartnersView({
  initial,
  callbackUrlHint,
  npisHint,
}: {
  initial: PartnerSummary[];
  callbackUrlHint: string;
  npisHint: string;
}) {
  const query = useQuery({
    queryKey: ["admin", "partners"],
    queryFn: () =>
      apiFetch<{ partners: PartnerSummary[] }>("/api/admin/partners", { background: true }).then((r) => r.partners),
    initialData: initial,
    refetchInterval: 30_000,
  });
  const partners = query.data;
  const { sorted, sort, toggle } = useSort(partners, SORT_COLUMNS, { key: "name", dir: "ascending" });
  const [created, setCreated] = useState<(CreatedPartner & { name: string }) | null>(null);

  return (
    <div className="space-y-3">
      <div className="flex items-baseline justify-between">
        <h1 className="text-lg font-semibold">Partners</h1>
        <p className="text-xs text-slate-500">Sending pharmacies that call /v1/transfer</p>
      </div>

      {created ? (
        <SecretPanel
          title={`Partner ${created.name} created: its credentials`}
          onDone={() => setCreated(null)}
          secrets={[
            { label: "API key", value: created.apiKey },
            { label: "OAuth client ID", value: created.clientId, isSecret: false },
            { label: "OAuth client secret", value: created.clientSecret },
            { label: "Webhook signing secret", value: created.webhookSecret },
          ]}
        >
          <p>
            <Link
              className="font-medium text-blue-800 underline"
              href={`/admin/partners/${created.partnerId}`}
              prefetch={false}
            >
              Open {created.name}
            </Link>{" "}
            to add keys, an outbound credential or NPIs.
          </p>
        </SecretPanel>
      ) : (
        <CreatePartnerForm onCreated={setCreated} callbackUrlHint={callbackUrlHint} npisHint={npisHint} />
      )}

      {query.error && <ErrorMessage>The partners could not be refreshed: {messageOf(query.error)}</ErrorMessage>}

      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <table className={TABLE_CLASS}>
          <caption className="sr-only">Partners, with transfers received and callback health</caption>
          <thead className={THEAD_CLASS}>
            <tr>
              <SortHeader label="Partner" column="name" sort={sort} onSort={toggle} />
              <th scope="col" className={TH_CLASS}>
                NPIs
              </th>
              <SortHeader label="Status" column="status" sort={sort} onSort={toggle} />
              <th scope="col" className={TH_CLASS}>
                Credentials
              </th>
              <SortHeader label="24 h" column="last24h" sort={sort} onSort={toggle} className="text-right" />
              <SortHeader label="7 days" column="last7d" sort={sort} onSort={toggle} className="text-right" />
              <SortHeader label="Last received" column="lastReceived" sort={sort} onSort={toggle} />
              <SortHeader label="Callbacks" column="health" sort={sort} onSort={toggle} />
            </tr>
          </thead>
          <tbody>
            {sorted.map((p) => {
              const health = callbackHealthText(p.callbacks);
              return (
                <tr key={p.partnerId} className={TR_CLASS}>
                  <td className={TD_CLASS}>
                    <Link
                      href={`/admin/partners/${p.partnerId}`}
                      prefetch={false}
                      className="font-medium text-blue-800 underline-offset-2 hover:underline"
                    >
                      {p.name}
                    </Link>
                    <div className="font-mono text-xs text-slate-500">{p.partnerId}</div>
                  </td>
                  <td className={`${TD_CLASS} font-mono text-xs`}>
                    {p.npis.length ? p.npis.join(", ") : <span className="font-sans text-slate-500">any</span>}
                    {p.npiWarning && (
                      <div className="font-sans">
                        <Badge tone="amber" title={p.npiWarning}>
                          No NPI allow-list
                        </Badge>
                      </div>
                    )}
                  </td>
                  <td className={TD_CLASS}>
                    {p.suspended ? <Badge tone="red">Suspended</Badge> : <Badge tone="green">Active</Badge>}
                  </td>
                  <td className={`${TD_CLASS} text-xs`}>
                    {plural(p.activeKeys, "key")}, {plural(p.activeClients, "OAuth client")}
                  </td>
                  <td className={`${TD_CLASS} text-right tabular-nums`}>{p.traffic.last24h}</td>
                  <td className={`${TD_CLASS} text-right tabular-nums`}>{p.traffic.last7d}</td>
                  <td className={TD_CLASS}>
                    {p.traffic.lastReceivedAt ? (
                      <LocalTime iso={p.traffic.lastReceivedAt} />
                    ) : (
                      <span className="text-slate-500">never</span>
                    )}
                  </td>
                  <td className={TD_CLASS}>
                    <Badge tone={health.tone} title={health.detail}>
                      {health.label}
                    </Badge>
                    <div className="text-xs text-slate-500">{health.detail}</div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {partners.length === 0 && (
          <p className="px-3 py-6 text-center text-slate-600" role="status">
            No partners yet. Add the first sending pharmacy above.
          </p>
        )}
      </div>
    </div>
  );
}
