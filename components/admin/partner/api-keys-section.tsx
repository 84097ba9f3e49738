"use client";
// API keys: create one (shown once), rotate one with an overlap, revoke one.
import { useState } from "react";
import { apiFetch, submitShowingErrors } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { ApiKeysTable } from "@/components/admin/partner/api-keys-table";
import { OverlapField } from "@/components/admin/partner/overlap-field";
import { Section, type Shown } from "@/components/admin/partner/section";
import { usePartnerRefresh } from "@/components/admin/partner/use-partner-refresh";
import { useConfirmedAction } from "@/components/admin/use-confirmed-action";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { CreateApiKeyFormSchema, RotateApiKeyInputSchema } from "@/lib/partners/partner-inputs";
import type { ApiKeyInfo, PartnerDetails } from "@/lib/partners/partner-views";
import { MAX_KEY_OVERLAP_HOURS } from "@/lib/partners/credential-rules";

type CreatedKey = { keyId: string; apiKey: string; expiresAt: string | null };

function CreateKeyForm({
  p,
  onShow,
  onStart,
}: {
  p: PartnerDetails;
  onShow: (shown: Shown) => void;
  onStart: () => void;
}) {
  const refresh = usePartnerRefresh(p.partnerId);
  const form = useSchemaForm(CreateApiKeyFormSchema, { defaultValues: { expiresInDays: "" } });
  const create = submitShowingErrors(form, ["expiresInDays"], async (input) => {
    onStart();
    const key = await apiFetch<CreatedKey>(`/api/admin/partners/${p.partnerId}/keys`, { method: "POST", body: input });
    form.reset();
    onShow({
      title: `New API key for ${p.name}`,
      secrets: [{ label: "API key", value: key.apiKey }],
      note: key.expiresAt ? (
        <p>
          It expires at <LocalTime iso={key.expiresAt} />.
        </p>
      ) : (
        <p>It does not expire; revoke it when it is no longer needed.</p>
      ),
    });
    await refresh();
  });
  return (
    <>
      <form noValidate onSubmit={create} className="flex flex-wrap items-end gap-2">
        <Field
          label="Expires after (days)"
          error={form.formState.errors.expiresInDays?.message}
          hint="Empty: never expires."
          className="w-48"
        >
          {(f) => (
            <input
              {...f}
              type="number"
              min={1}
              max={3650}
              step={1}
              inputMode="numeric"
              {...form.register("expiresInDays")}
            />
          )}
        </Field>
        <Button type="submit" variant="primary" disabled={form.formState.isSubmitting} className="mb-5">
          {form.formState.isSubmitting ? "Creating…" : "Create API key"}
        </Button>
      </form>
      <ErrorMessage>{form.formState.errors.root?.server?.message}</ErrorMessage>
    </>
  );
}

export function ApiKeysSection({ p, onShow }: { p: PartnerDetails; onShow: (shown: Shown) => void }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [status, setStatus] = useState("");
  const revoke = useConfirmedAction({
    run: (key: ApiKeyInfo) => apiFetch(`/api/admin/keys/${key.keyId}/revoke`, { method: "POST" }),
    onDone: async (_data, key) => {
      setStatus(`Key ${key.display} revoked: requests with it are refused from now on.`);
      await refresh();
    },
  });
  const rotateForm = useSchemaForm(RotateApiKeyInputSchema, { defaultValues: { overlapHours: 24 } });
  const rotate = useConfirmedAction({
    form: { form: rotateForm, fields: ["overlapHours"] },
    run: (key: ApiKeyInfo, input) =>
      apiFetch<CreatedKey & { oldKeyExpiresAt: string }>(`/api/admin/keys/${key.keyId}/rotate`, {
        method: "POST",
        body: input,
      }),
    onDone: async (rotated, old) => {
      onShow({
        title: `New API key for ${p.name} (replaces ${old.display})`,
        secrets: [{ label: "API key", value: rotated.apiKey }],
        note: (
          <p>
            The old key {old.display} keeps working until <LocalTime iso={rotated.oldKeyExpiresAt} />, then expires.
          </p>
        ),
      });
      await refresh();
    },
  });
  return (
    <Section
      id="keys-heading"
      title="API keys"
      description="Sent as Authorization: senderKey <key>. Shown once when made; here only their first and last characters."
    >
      <CreateKeyForm p={p} onShow={onShow} onStart={() => setStatus("")} />
      <StatusMessage>{status}</StatusMessage>
      <ApiKeysTable partnerName={p.name} keys={p.apiKeys} onRotate={rotate.ask} onRevoke={revoke.ask} />
      <ConfirmDialog
        {...revoke.dialog}
        title={`Revoke key ${revoke.target?.display ?? ""}?`}
        description={`Requests from ${p.name} with this key are refused (401) at once. This cannot be undone; make a new key if it is still needed.`}
        confirmLabel="Revoke key"
        pendingLabel="Revoking…"
      />
      <ConfirmDialog
        {...rotate.dialog}
        title={`Rotate key ${rotate.target?.display ?? ""}?`}
        description="A new key is made and shown once. The old key keeps working for the overlap you choose, so the partner can switch without an outage, then expires."
        confirmLabel="Rotate key"
        pendingLabel="Rotating…"
        variant="primary"
      >
        <OverlapField form={rotateForm} max={MAX_KEY_OVERLAP_HOURS} label="Old key keeps working for (hours)" />
      </ConfirmDialog>
    </Section>
  );
}
