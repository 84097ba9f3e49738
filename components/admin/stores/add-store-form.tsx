"use client";
// "Add a store": its name, NPI, optional DEA number and address.
import { apiFetch, submitShowingErrors } from "@/components/admin/api";
import { ErrorMessage } from "@/components/admin/notices";
import { useStoresRefresh } from "@/components/admin/stores/store-row";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { StoreInputSchema } from "@/lib/stores/store-inputs";

const FIELDS = ["name", "npi", "dea", "addressLine1", "addressLine2", "city", "state", "postalCode"] as const;

export function AddStoreForm({ onAdded }: { onAdded: (message: string) => void }) {
  const refresh = useStoresRefresh();
  const form = useSchemaForm(StoreInputSchema, {
    defaultValues: Object.fromEntries(FIELDS.map((f) => [f, ""])) as Record<(typeof FIELDS)[number], string>,
  });
  const errors = form.formState.errors;
  const submit = submitShowingErrors(form, FIELDS, async (input) => {
    await apiFetch("/api/admin/stores", { method: "POST", body: input });
    form.reset();
    onAdded(`Store ${input.name} (NPI ${input.npi}) added: transfers may name it as the receiving pharmacy.`);
    await refresh();
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
      <div className="grid grid-cols-1 gap-2 md:grid-cols-3">
        {text("name", "Store name")}
        {text("npi", "NPI", { inputMode: "numeric" })}
        {text("dea", "DEA number", { hint: "Optional." })}
      </div>
      <fieldset className="grid grid-cols-1 gap-2 md:grid-cols-5">
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
