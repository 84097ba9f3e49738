"use client";
// Where the partner's callbacks go, with a button that sends a signed test callback there.
import { useState } from "react";
import { apiFetch, submitShowingErrors } from "@/components/admin/api";
import { StatusMessage } from "@/components/admin/notices";
import { Section } from "@/components/admin/partner/section";
import { TestCallback } from "@/components/admin/partner/test-callback";
import { usePartnerRefresh } from "@/components/admin/partner/use-partner-refresh";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { CallbackUrlInputSchema } from "@/lib/partners/partner-inputs";
import type { PartnerDetails } from "@/lib/partners/partner-views";

const WHERE = "Where this partner's CONFIRMED and ERROR callbacks are POSTed.";

export function CallbackUrlForm({ p, hint }: { p: PartnerDetails; hint: string }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [status, setStatus] = useState("");
  const form = useSchemaForm(CallbackUrlInputSchema, {
    values: { callbackUrl: p.callbackUrl },
    resetOptions: { keepDirtyValues: true },
  });
  const errors = form.formState.errors;
  const submit = submitShowingErrors(form, ["callbackUrl"], async (input) => {
    setStatus("");
    const saved = await apiFetch<{ callbackUrl: string }>(`/api/admin/partners/${p.partnerId}/callback-url`, {
      method: "PUT",
      body: input,
    });
    setStatus(`Callbacks now go to ${saved.callbackUrl}.`);
    form.reset({ callbackUrl: saved.callbackUrl });
    await refresh();
  });
  return (
    <Section
      id="callback-url-heading"
      title="Callback URL"
      description={
        p.callbackPrivateNetworksAllowed
          ? `${WHERE} This server allows private networks (CALLBACK_ALLOW_PRIVATE_NETWORKS=true, for development and tests): loopback and private addresses such as 127.0.0.1 are accepted here, and would be refused in production.`
          : `${WHERE} The address must be public: loopback, private and metadata addresses are refused.`
      }
    >
      <form noValidate onSubmit={submit} className="space-y-2">
        <Field label="Callback URL" error={errors.callbackUrl?.message ?? errors.root?.server?.message} hint={hint}>
          {(f) => <input {...f} type="url" inputMode="url" {...form.register("callbackUrl")} />}
        </Field>
        <div className="flex items-center gap-2">
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Checking…" : "Save callback URL"}
          </Button>
          <StatusMessage>{status}</StatusMessage>
        </div>
      </form>
      <TestCallback partnerId={p.partnerId} />
    </Section>
  );
}
