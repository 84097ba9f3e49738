"use client";
// The partner's own credential header that callbacks carry (write-only), and its removal.
import { useState } from "react";
import { apiFetch, submitShowingErrors } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { Section } from "@/components/admin/partner/section";
import { usePartnerRefresh } from "@/components/admin/partner/use-partner-refresh";
import { useConfirmedAction } from "@/components/admin/use-confirmed-action";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { OutboundCredentialInputSchema } from "@/lib/partners/partner-inputs";
import type { PartnerDetails } from "@/lib/partners/partner-views";

export function OutboundCredentialForm({ p }: { p: PartnerDetails }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [status, setStatus] = useState("");
  const form = useSchemaForm(OutboundCredentialInputSchema, {
    defaultValues: { headerName: p.outboundHeaderName ?? "Authorization", headerValue: "" },
  });
  const errors = form.formState.errors;
  const submit = submitShowingErrors(form, ["headerName", "headerValue"], async (input) => {
    setStatus("");
    await apiFetch(`/api/admin/partners/${p.partnerId}/outbound-credential`, { method: "PUT", body: input });
    setStatus(`Callbacks now carry the ${input.headerName} header.`);
    form.reset({ headerName: input.headerName, headerValue: "" });
    await refresh();
  });
  const remove = useConfirmedAction({
    run: (_: true) => apiFetch(`/api/admin/partners/${p.partnerId}/outbound-credential`, { method: "DELETE" }),
    onDone: async () => {
      setStatus("Outbound credential removed: callbacks carry only the webhook signature.");
      await refresh();
    },
  });
  const submitting = form.formState.isSubmitting;
  return (
    <Section
      id="outbound-heading"
      title="Outbound credential"
      description={
        p.outboundHeaderName ? (
          <>
            Callbacks carry the partner&apos;s <code className="font-mono">{p.outboundHeaderName}</code> header (its
            value is stored encrypted and not shown).
          </>
        ) : (
          "None: callbacks carry only the webhook signature. Set one if the partner's endpoint asks for its own credential."
        )
      }
    >
      <form noValidate onSubmit={submit} className="space-y-2">
        <div className="grid grid-cols-1 gap-2 md:grid-cols-[16rem_1fr]">
          <Field label="Header name" error={errors.headerName?.message}>
            {(f) => <input {...f} autoComplete="off" {...form.register("headerName")} />}
          </Field>
          <Field label="Header value" error={errors.headerValue?.message} hint="e.g. Bearer abc123; write-only.">
            {(f) => <input {...f} type="password" autoComplete="new-password" {...form.register("headerValue")} />}
          </Field>
        </div>
        <ErrorMessage>{errors.root?.server?.message}</ErrorMessage>
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" disabled={submitting}>
            {submitting ? "Saving…" : p.outboundHeaderName ? "Replace outbound credential" : "Set outbound credential"}
          </Button>
          {p.outboundHeaderName && (
            <Button variant="ghost" onClick={() => remove.ask(true)}>
              Remove outbound credential
            </Button>
          )}
          <StatusMessage>{status}</StatusMessage>
        </div>
      </form>
      <ConfirmDialog
        {...remove.dialog}
        title="Remove the outbound credential?"
        description={`Callbacks to ${p.name} will no longer carry the ${p.outboundHeaderName ?? ""} header; an endpoint that requires it will refuse them.`}
        confirmLabel="Remove credential"
        pendingLabel="Removing…"
      />
    </Section>
  );
}
