"use client";
// This pharmacy's stores: the NPIs an incoming transfer may name as receivingPharmacy. A request naming any
// other NPI is refused as INVALID_INFO. The store configured in the environment (PHARMACY_NPI) is listed
// but can only be changed there, except for its drug rules. Each store's drug rules: the substances its state
// schedules beyond the federal table (gabapentin is C-V in several states) and how many months a
// non-controlled prescription stays valid.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import * as z from "zod";
import { apiFetch, messageOf, submitShowingErrors } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { Field } from "@/components/ui/field";
import { formatOpeningHours, StoreAlertDialog } from "@/components/admin/store-alert-dialog";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { SortHeader, useSort } from "@/components/admin/sortable";
import { TABLE_CLASS, TD_CLASS, TH_CLASS, THEAD_CLASS, TR_CLASS } from "@/components/ui/table";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { StoreInputSchema } from "@/lib/stores/store-inputs";
import { formatExtraSchedules, parseExtraSchedulesText, StoreRulesSchema, type StoreRules } from "@/lib/stores/store-rules";
import type { StoreAlertSettings } from "@/lib/alerts/alert-settings";

type StoreAddress = {
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  postalCode: string;
  countryCode: string;
};
export type StoreRow = {
  storeId: string;
  name: string;
  npi: string;
  dea: string | null;
  address: unknown;
  configured: boolean;
} & StoreRules &
  StoreAlertSettings;

/** The rules as the dialog takes them: the state schedules as one line of text, "gabapentin:V, …". */
const RulesFormSchema = z.object({
  extraSchedules: z
    .string()
    .max(4000, "At most 4000 characters")
    .transform((text, ctx) => {
      try {
        return parseExtraSchedulesText(text);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: err instanceof Error ? err.message : String(err) });
        return z.NEVER;
      }
    }),
  rxExpiryMonths: z.coerce.number({ error: "Enter a number of months" }).pipe(StoreRulesSchema.shape.rxExpiryMonths),
});

function addressText(address: unknown): string | null {
  if (!address || typeof address !== "object") return null;
  const a = address as Partial<StoreAddress>;
  return (
    [
      a.addressLine1,
      a.addressLine2,
      [a.city, [a.state, a.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", "),
    ]
      .filter(Boolean)
      .join(", ") || null
  );
}

const SORT_COLUMNS = { name: (s: StoreRow) => s.name.toLowerCase(), npi: (s: StoreRow) => s.npi };

const FIELDS = ["name", "npi", "dea", "addressLine1", "addressLine2", "city", "state", "postalCode"] as const;

function AddStoreForm({ onAdded }: { onAdded: (message: string) => void }) {
  const queryClient = useQueryClient();
  const form = useSchemaForm(StoreInputSchema, {
    defaultValues: {
      name: "",
      npi: "",
      dea: "",
      addressLine1: "",
      addressLine2: "",
      city: "",
      state: "",
      postalCode: "",
    },
  });
  const errors = form.formState.errors;
  const submit = submitShowingErrors(form, FIELDS, async (input) => {
    await apiFetch("/api/admin/stores", { method: "POST", body: input });
    form.reset();
    onAdded(`Store ${input.name} (NPI ${input.npi}) added: transfers may name it as the receiving pharmacy.`);
    await queryClient.invalidateQueries({ queryKey: ["admin", "stores"] });
  });
  const text = (
    name: (typeof FIELDS)[number],
    label: string,
    opts: { hint?: string; className?: string; inputMode?: "numeric" } = {},
  ) => (
    <Field label={label} error={errors[name]?.message} hint={opts.hint} className={opts.className}>
      {(f) => <input {...f} autoComplete="off" inputMode={opts.inputMode} {...form.register(name)} />}
    </Field>
  );
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby="new-store-heading"
      className="space-y-2 rounded border border-slate-200 bg-white p-3"
    >
      <h2 id="new-store-heading" className="font-semibold">
        Add a store
      </h2>
      <div className="grid gap-2 md:grid-cols-3">
        {text("name", "Store name")}
        {text("npi", "NPI", { inputMode: "numeric" })}
        {text("dea", "DEA number", { hint: "Optional." })}
      </div>
      <fieldset className="grid gap-2 md:grid-cols-5">
        <legend className="mb-1 text-xs font-medium text-slate-600">Address (optional)</legend>
        {text("addressLine1", "Address line 1", { className: "md:col-span-2" })}
        {text("addressLine2", "Address line 2")}
        {text("city", "City")}
        <div className="grid grid-cols-2 gap-2">
          {text("state", "State")}
          {text("postalCode", "ZIP code", { inputMode: "numeric" })}
        </div>
      </fieldset>
      <ErrorMessage>{errors.root?.server?.message}</ErrorMessage>
      <Button type="submit" variant="primary" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? "Adding…" : "Add store"}
      </Button>
    </form>
  );
}

function RulesDialog({ store, onDone, onCancel }: { store: StoreRow | null; onDone: (message: string) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const form = useSchemaForm(RulesFormSchema, {
    values: {
      extraSchedules: store ? formatExtraSchedules(store.extraSchedules) : "",
      rxExpiryMonths: store?.rxExpiryMonths ?? 12,
    },
  });
  const errors = form.formState.errors;
  const submit = submitShowingErrors(form, ["extraSchedules", "rxExpiryMonths"], async (input) => {
    if (!store) return;
    const saved = await apiFetch<{ reclassified: number }>(`/api/admin/stores/${store.storeId}`, { method: "PATCH", body: input });
    onDone(
      `Drug rules of ${store.name} saved` +
        (saved.reclassified ? `; ${saved.reclassified} pending transfer${saved.reclassified === 1 ? "" : "s"} classified again.` : "."),
    );
    await queryClient.invalidateQueries({ queryKey: ["admin", "stores"] });
  });
  return (
    <ConfirmDialog
      open={store !== null}
      title={`Drug rules of ${store?.name ?? ""}`}
      description="State law on top of the federal rules. The stricter schedule applies; pending transfers are classified again at once, approvals already made keep theirs."
      confirmLabel="Save drug rules"
      pendingLabel="Saving…"
      variant="primary"
      pending={form.formState.isSubmitting}
      error={errors.root?.server?.message}
      onCancel={onCancel}
      onConfirm={() => void submit()}
    >
      <Field
        label="State schedules"
        error={errors.extraSchedules?.message}
        hint="Substance and schedule (II, III, IV or V), separated by commas, e.g. gabapentin:V. Empty: the federal table only."
      >
        {(f) => <textarea {...f} rows={3} autoComplete="off" data-autofocus {...form.register("extraSchedules")} />}
      </Field>
      <Field
        label="Non-controlled prescriptions are valid for (months)"
        error={errors.rxExpiryMonths?.message}
        hint="After the written date; 1 to 60. Commonly 12."
      >
        {(f) => <input {...f} type="number" inputMode="numeric" min={1} max={60} step={1} {...form.register("rxExpiryMonths")} />}
      </Field>
    </ConfirmDialog>
  );
}

export function StoresView({ initial }: { initial: StoreRow[] }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ["admin", "stores"],
    queryFn: () => apiFetch<{ stores: StoreRow[] }>("/api/admin/stores", { background: true }).then((r) => r.stores),
    initialData: initial,
  });
  const stores = query.data;
  const { sorted, sort, toggle } = useSort(stores, SORT_COLUMNS, { key: "name", dir: "ascending" });
  const [status, setStatus] = useState("");
  const [removing, setRemoving] = useState<StoreRow | null>(null);
  const [rulesFor, setRulesFor] = useState<StoreRow | null>(null);
  const [alertsFor, setAlertsFor] = useState<StoreRow | null>(null);
  const remove = useMutation({
    mutationFn: (store: StoreRow) => apiFetch(`/api/admin/stores/${store.storeId}`, { method: "DELETE" }),
    onSuccess: async (_data, store) => {
      setRemoving(null);
      setStatus(`Store ${store.name} removed: transfers naming NPI ${store.npi} are refused from now on.`);
      await queryClient.invalidateQueries({ queryKey: ["admin", "stores"] });
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
        <table className={TABLE_CLASS}>
          <caption className="sr-only">This pharmacy&apos;s stores</caption>
          <thead className={THEAD_CLASS}>
            <tr>
              <SortHeader label="Store" column="name" sort={sort} onSort={toggle} />
              <SortHeader label="NPI" column="npi" sort={sort} onSort={toggle} />
              <th scope="col" className={TH_CLASS}>
                DEA
              </th>
              <th scope="col" className={TH_CLASS}>
                Address
              </th>
              <th scope="col" className={TH_CLASS}>
                State schedules
              </th>
              <th scope="col" className={TH_CLASS}>
                Non-controlled Rx valid
              </th>
              <th scope="col" className={TH_CLASS}>
                Alerts
              </th>
              <th scope="col" className={TH_CLASS}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((s) => (
              <tr key={s.storeId} className={TR_CLASS}>
                <td className={TD_CLASS}>
                  {s.name}{" "}
                  {s.configured && (
                    <Badge title="Configured by the PHARMACY_NPI environment variable">PHARMACY_NPI</Badge>
                  )}
                </td>
                <td className={`${TD_CLASS} font-mono`}>{s.npi}</td>
                <td className={`${TD_CLASS} font-mono`}>
                  {s.dea ?? <span className="font-sans text-slate-500">none</span>}
                </td>
                <td className={TD_CLASS}>{addressText(s.address) ?? <span className="text-slate-500">none</span>}</td>
                <td className={TD_CLASS}>
                  {s.extraSchedules.length ? (
                    s.extraSchedules.map((e) => `${e.substance} C-${e.schedule}`).join(", ")
                  ) : (
                    <span className="text-slate-500">federal only</span>
                  )}
                </td>
                <td className={TD_CLASS}>{s.rxExpiryMonths} months</td>
                <td className={TD_CLASS}>
                  at {s.alertThresholdsMinutes.join(", ")} min; {formatOpeningHours(s.openingHours)}
                  {s.openingHours && ` (${s.timeZone})`}
                </td>
                <td className={`${TD_CLASS} whitespace-nowrap text-right`}>
                  <Button className="mr-1" onClick={() => setRulesFor(s)}>
                    Drug rules<span className="sr-only"> of {s.name}</span>
                  </Button>
                  <Button className="mr-1" onClick={() => setAlertsFor(s)}>
                    Alerts<span className="sr-only"> of {s.name}</span>
                  </Button>
                  {s.configured ? (
                    <span className="text-xs text-slate-500">NPI set in the environment</span>
                  ) : (
                    <Button
                      variant="danger"
                      onClick={() => {
                        remove.reset();
                        setRemoving(s);
                      }}
                    >
                      Remove<span className="sr-only"> store {s.name}</span>
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {stores.length === 0 && <p className="px-3 py-6 text-center text-slate-600">No stores yet.</p>}
      </div>
      <RulesDialog
        store={rulesFor}
        onCancel={() => setRulesFor(null)}
        onDone={(message) => {
          setRulesFor(null);
          setStatus(message);
        }}
      />
      <StoreAlertDialog
        store={alertsFor}
        onCancel={() => setAlertsFor(null)}
        onDone={(message) => {
          setAlertsFor(null);
          setStatus(message);
        }}
      />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove store ${removing?.name ?? ""}?`}
        description={`Transfers naming NPI ${removing?.npi ?? ""} as the receiving pharmacy will be refused (INVALID_INFO). Transfers already received stay.`}
        confirmLabel="Remove store"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error ? messageOf(remove.error) : null}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing)}
      />
    </div>
  );
}
