"use client";
// Rotating the webhook signing secret: the new one is shown once, the old one keeps signing for an overlap.
import { apiFetch } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { OverlapField } from "@/components/admin/partner/overlap-field";
import { Section, type Shown } from "@/components/admin/partner/section";
import { usePartnerRefresh } from "@/components/admin/partner/use-partner-refresh";
import { useConfirmedAction } from "@/components/admin/use-confirmed-action";
import { useSchemaForm } from "@/components/forms/use-schema-form";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { RotateWebhookSecretInputSchema } from "@/lib/partners/partner-inputs";
import type { PartnerDetails } from "@/lib/partners/partner-views";
import { MAX_SECRET_OVERLAP_HOURS } from "@/lib/partners/credential-rules";

type RotatedSecret = { webhookSecret: string; previousExpiresAt: string };

export function WebhookSecretSection({ p, onShow }: { p: PartnerDetails; onShow: (shown: Shown) => void }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const form = useSchemaForm(RotateWebhookSecretInputSchema, { defaultValues: { overlapHours: 24 } });
  const rotate = useConfirmedAction({
    form: { form, fields: ["overlapHours"] },
    run: (_: true, input) =>
      apiFetch<RotatedSecret>(`/api/admin/partners/${p.partnerId}/webhook-secret`, { method: "POST", body: input }),
    onDone: async (rotated) => {
      onShow({
        title: `New webhook signing secret for ${p.name}`,
        secrets: [{ label: "Webhook signing secret", value: rotated.webhookSecret }],
        note: (
          <p>
            Callbacks are signed with both the new and the old secret until{" "}
            <LocalTime iso={rotated.previousExpiresAt} />. Give the partner the new one before then.
          </p>
        ),
      });
      await refresh();
    },
  });
  return (
    <Section
      id="webhook-heading"
      title="Webhook signing secret"
      description={
        p.previousSecretExpiresAt ? (
          <>
            Rotated: the previous secret still signs callbacks too, until <LocalTime iso={p.previousSecretExpiresAt} />.
          </>
        ) : (
          "Signs every callback (Standard Webhooks). It is stored encrypted and was shown when it was made."
        )
      }
    >
      <Button onClick={() => rotate.ask(true)}>Rotate webhook secret</Button>
      <ConfirmDialog
        {...rotate.dialog}
        title="Rotate the webhook signing secret?"
        description={`A new secret is made and shown once. During the overlap, callbacks to ${p.name} carry signatures with both secrets; after it, only the new one.`}
        confirmLabel="Rotate secret"
        pendingLabel="Rotating…"
        variant="primary"
      >
        <OverlapField form={form} max={MAX_SECRET_OVERLAP_HOURS} label="Old secret keeps signing for (hours)" />
      </ConfirmDialog>
    </Section>
  );
}
