"use client";
// The partner's name and the pharmacy NPIs it may send from (none: any).
import { useState } from "react";
import { apiFetch, submitShowingErrors } from "@/components/admin/api";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { Section } from "@/components/admin/partner/section";
import { usePartnerRefresh } from "@/components/admin/partner/use-partner-refresh";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { PartnerProfileFormSchema } from "@/lib/partners/partner-inputs";
import type { PartnerDetails } from "@/lib/partners/partner-views";

export function ProfileForm({ p }: { p: PartnerDetails }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [status, setStatus] = useState("");
  const form = useSchemaForm(PartnerProfileFormSchema, {
    values: { name: p.name, npis: p.npis.join(", ") },
    resetOptions: { keepDirtyValues: true },
  });
  const errors = form.formState.errors;
  const submit = submitShowingErrors(form, ["name", "npis"], async (input) => {
    setStatus("");
    await apiFetch(`/api/admin/partners/${p.partnerId}`, {
      method: "PATCH",
      body: { name: input.name, npis: input.npis },
    });
    setStatus("Name and NPIs saved.");
    form.reset({ name: input.name, npis: input.npis.join(", ") });
    await refresh();
  });
  return (
    <Section
      id="profile-heading"
      title="Name and NPIs"
      description="With NPIs, the partner may send transfers only from those pharmacy NPIs; without, from any."
    >
      {p.npiWarning && (
        <p role="alert" className="mb-2 rounded border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-900">
          {p.npiWarning}
        </p>
      )}
      <form noValidate onSubmit={submit} className="space-y-2">
        <div className="grid grid-cols-1 gap-2 md:grid-cols-2">
          <Field label="Name" error={errors.name?.message}>
            {(f) => <input {...f} autoComplete="off" {...form.register("name")} />}
          </Field>
          <Field label="Pharmacy NPIs" error={errors.npis?.message} hint="Separated by commas or spaces.">
            {(f) => <input {...f} inputMode="numeric" {...form.register("npis")} />}
          </Field>
        </div>
        <ErrorMessage>{errors.root?.server?.message}</ErrorMessage>
        <div className="flex items-center gap-2">
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Saving…" : "Save name and NPIs"}
          </Button>
          <StatusMessage>{status}</StatusMessage>
        </div>
      </form>
    </Section>
  );
}
