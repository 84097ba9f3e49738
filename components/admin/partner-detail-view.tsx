"use client";
// One sending partner: traffic and callback health, its profile (name, NPIs), callback URL, outbound
// credential, webhook secret, API keys and OAuth clients. New secrets are shown once in a panel at the
// top; destructive actions (suspend, revoke, rotate, remove) are confirmed in a dialog first.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, messageOf, submitShowingErrors } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { Field } from "@/components/ui/field";
import { callbackHealthText } from "@/components/admin/format";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { SecretPanel, type ShownSecret } from "@/components/admin/secret-panel";
import { TABLE_CLASS, TD_CLASS, TH_CLASS, THEAD_CLASS, TR_CLASS } from "@/components/ui/table";
import { type SchemaForm, useSchemaForm } from "@/components/forms/use-schema-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { CallbackUrlInputSchema, CreateApiKeyFormSchema, OutboundCredentialInputSchema, PartnerProfileFormSchema, RotateApiKeyInputSchema, RotateWebhookSecretInputSchema } from "@/lib/partners/partner-inputs";
import { MAX_KEY_OVERLAP_HOURS, MAX_SECRET_OVERLAP_HOURS } from "@/lib/partners/credential-rules";
import type { ApiKeyInfo, OAuthClientInfo, PartnerDetails } from "@/lib/partners/partner-views";
import type { TestCallbackResult } from "@/lib/callbacks/send-test-callback";

type Shown = { title: string; secrets: ShownSecret[]; note?: React.ReactNode };

const SECTION_CLASS = "space-y-2 rounded border border-slate-200 bg-white p-3";

function Section({
  id,
  title,
  children,
  description,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
  description?: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={SECTION_CLASS}>
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      {description && <p className="text-slate-600">{description}</p>}
      {children}
    </section>
  );
}

function usePartnerRefresh(partnerId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["admin", "partner", partnerId] }),
      queryClient.invalidateQueries({ queryKey: ["admin", "partners"] }),
    ]);
}

// --- Overview: traffic and callback health ------------------------------------------------------------

function TrafficSection({ p }: { p: PartnerDetails }) {
  const health = callbackHealthText(p.callbacks);
  const row = "flex justify-between gap-3 border-b border-slate-100 py-1 last:border-b-0";
  return (
    <Section id="traffic-heading" title="Traffic and callbacks">
      <dl className="grid gap-x-6 md:grid-cols-2">
        <div className={row}>
          <dt className="text-slate-600">Transfers received, last 24 h</dt>
          <dd className="tabular-nums">{p.traffic.last24h}</dd>
        </div>
        <div className={row}>
          <dt className="text-slate-600">Transfers received, last 7 days</dt>
          <dd className="tabular-nums">{p.traffic.last7d}</dd>
        </div>
        <div className={row}>
          <dt className="text-slate-600">Last received</dt>
          <dd>{p.traffic.lastReceivedAt ? <LocalTime iso={p.traffic.lastReceivedAt} /> : "never"}</dd>
        </div>
        <div className={row}>
          <dt className="text-slate-600">Callback endpoint</dt>
          <dd>
            <Badge tone={health.tone}>{health.label}</Badge>
            {p.callbacks.since && (
              <span className="ml-1 text-xs text-slate-600">
                since <LocalTime iso={p.callbacks.since} />
              </span>
            )}
          </dd>
        </div>
        <div className={row}>
          <dt className="text-slate-600">Callbacks</dt>
          <dd className="text-right">{health.detail}</dd>
        </div>
        <div className={row}>
          <dt className="text-slate-600">Last callback delivered</dt>
          <dd>{p.callbacks.lastDeliveredAt ? <LocalTime iso={p.callbacks.lastDeliveredAt} /> : "none in 7 days"}</dd>
        </div>
      </dl>
    </Section>
  );
}

// --- Suspend / resume -----------------------------------------------------------------------------------

function SuspensionControl({ p }: { p: PartnerDetails }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState("");
  const change = useMutation({
    mutationFn: (suspended: boolean) =>
      apiFetch(`/api/admin/partners/${p.partnerId}/suspension`, { method: "PUT", body: { suspended } }),
    onSuccess: async (_data, suspended) => {
      setConfirming(false);
      setStatus(suspended ? `${p.name} is suspended: its keys and tokens are refused.` : `${p.name} is active again.`);
      await refresh();
    },
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      {p.suspended ? (
        <Button
          onClick={() => {
            change.reset();
            change.mutate(false);
          }}
          disabled={change.isPending}
        >
          Resume partner
        </Button>
      ) : (
        <Button
          variant="danger"
          onClick={() => {
            change.reset();
            setConfirming(true);
          }}
        >
          Suspend partner
        </Button>
      )}
      <StatusMessage>{status}</StatusMessage>
      {!confirming && change.error && <ErrorMessage>{messageOf(change.error)}</ErrorMessage>}
      <ConfirmDialog
        open={confirming}
        title={`Suspend ${p.name}?`}
        description="Its API keys and OAuth bearer tokens are refused at once (401) until you resume it. Nothing is deleted."
        confirmLabel="Suspend partner"
        pendingLabel="Suspending…"
        pending={change.isPending}
        error={change.error ? messageOf(change.error) : null}
        onCancel={() => setConfirming(false)}
        onConfirm={() => change.mutate(true)}
      />
    </div>
  );
}

// --- Profile, callback URL, outbound credential ------------------------------------------------------------

function ProfileForm({ p }: { p: PartnerDetails }) {
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
        <div className="grid gap-2 md:grid-cols-2">
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

function CallbackUrlForm({ p, hint }: { p: PartnerDetails; hint: string }) {
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
          ? "Where this partner's CONFIRMED and ERROR callbacks are POSTed. This server allows private networks (CALLBACK_ALLOW_PRIVATE_NETWORKS=true, for development and tests): loopback and private addresses such as 127.0.0.1 are accepted here, and would be refused in production."
          : "Where this partner's CONFIRMED and ERROR callbacks are POSTed. The address must be public: loopback, private and metadata addresses are refused."
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

/** Sends a signed sample callback (metadata.test: true) to the saved URL and shows the attempt. */
function TestCallback({ partnerId }: { partnerId: string }) {
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<TestCallbackResult | null>(null);
  const [failure, setFailure] = useState("");
  const send = async () => {
    setSending(true);
    setFailure("");
    setResult(null);
    try {
      setResult(await apiFetch<TestCallbackResult>(`/api/admin/partners/${partnerId}/test-callback`, { method: "POST" }));
    } catch (err) {
      setFailure(err instanceof Error ? err.message : "The test callback could not be sent.");
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="mt-3 border-t border-slate-200 pt-2">
      <p className="text-xs text-slate-600">
        A signed sample CONFIRMED TransferResponse marked <code>metadata.test: true</code> (referenceID <code>trf_test</code>), sent once to the saved URL
        with the partner&apos;s signature and credential header, so the partner can check their receiver before the first real transfer. Recorded in the audit log.
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <Button onClick={() => void send()} disabled={sending}>
          {sending ? "Sending…" : "Send a test callback"}
        </Button>
        <span role="status" className={result && !result.ok ? "text-red-800" : "text-slate-800"}>
          {result &&
            (result.ok
              ? `Test callback ${result.webhookId} acknowledged: HTTP ${result.statusCode} in ${result.latencyMs} ms from ${result.url}.`
              : `Test callback ${result.webhookId} to ${result.url} failed: ${result.statusCode !== null ? `HTTP ${result.statusCode}` : ""}${result.statusCode !== null && result.error ? " – " : ""}${result.error ?? ""}.`)}
        </span>
        {failure && (
          <span role="alert" className="text-red-800">
            {failure}
          </span>
        )}
      </div>
    </div>
  );
}

function OutboundCredentialForm({ p }: { p: PartnerDetails }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [status, setStatus] = useState("");
  const [confirmingRemove, setConfirmingRemove] = useState(false);
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
  const remove = useMutation({
    mutationFn: () => apiFetch(`/api/admin/partners/${p.partnerId}/outbound-credential`, { method: "DELETE" }),
    onSuccess: async () => {
      setConfirmingRemove(false);
      setStatus("Outbound credential removed: callbacks carry only the webhook signature.");
      await refresh();
    },
  });
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
        <div className="grid gap-2 md:grid-cols-[16rem_1fr]">
          <Field label="Header name" error={errors.headerName?.message}>
            {(f) => <input {...f} autoComplete="off" {...form.register("headerName")} />}
          </Field>
          <Field label="Header value" error={errors.headerValue?.message} hint="e.g. Bearer abc123; write-only.">
            {(f) => <input {...f} type="password" autoComplete="new-password" {...form.register("headerValue")} />}
          </Field>
        </div>
        <ErrorMessage>{errors.root?.server?.message}</ErrorMessage>
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting
              ? "Saving…"
              : p.outboundHeaderName
                ? "Replace outbound credential"
                : "Set outbound credential"}
          </Button>
          {p.outboundHeaderName && (
            <Button
              variant="ghost"
              onClick={() => {
                remove.reset();
                setConfirmingRemove(true);
              }}
            >
              Remove outbound credential
            </Button>
          )}
          <StatusMessage>{status}</StatusMessage>
        </div>
      </form>
      <ConfirmDialog
        open={confirmingRemove}
        title="Remove the outbound credential?"
        description={`Callbacks to ${p.name} will no longer carry the ${p.outboundHeaderName ?? ""} header; an endpoint that requires it will refuse them.`}
        confirmLabel="Remove credential"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error ? messageOf(remove.error) : null}
        onCancel={() => setConfirmingRemove(false)}
        onConfirm={() => remove.mutate()}
      />
    </Section>
  );
}

// --- Webhook secret --------------------------------------------------------------------------------------

function OverlapField({
  form,
  max,
  label,
}: {
  form: SchemaForm<typeof RotateApiKeyInputSchema>;
  max: number;
  label: string;
}) {
  const error = form.formState.errors.overlapHours?.message;
  return (
    <Field label={label} error={error} hint={`0 to ${max} hours; 0 ends it now.`}>
      {(f) => (
        <input
          {...f}
          type="number"
          min={0}
          max={max}
          step={1}
          inputMode="numeric"
          data-autofocus
          {...form.register("overlapHours")}
        />
      )}
    </Field>
  );
}

function WebhookSecretSection({ p, onShow }: { p: PartnerDetails; onShow: (shown: Shown) => void }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [confirming, setConfirming] = useState(false);
  const form = useSchemaForm(RotateWebhookSecretInputSchema, {
    defaultValues: { overlapHours: 24 },
  });
  const submit = submitShowingErrors(form, ["overlapHours"], async (input) => {
    const rotated = await apiFetch<{ webhookSecret: string; previousExpiresAt: string }>(
      `/api/admin/partners/${p.partnerId}/webhook-secret`,
      {
        method: "POST",
        body: input,
      },
    );
    setConfirming(false);
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
      <Button
        onClick={() => {
          form.reset({ overlapHours: 24 });
          setConfirming(true);
        }}
      >
        Rotate webhook secret
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Rotate the webhook signing secret?"
        description={`A new secret is made and shown once. During the overlap, callbacks to ${p.name} carry signatures with both secrets; after it, only the new one.`}
        confirmLabel="Rotate secret"
        pendingLabel="Rotating…"
        variant="primary"
        pending={form.formState.isSubmitting}
        error={form.formState.errors.root?.server?.message}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void submit()}
      >
        <OverlapField form={form} max={MAX_SECRET_OVERLAP_HOURS} label="Old secret keeps signing for (hours)" />
      </ConfirmDialog>
    </Section>
  );
}

// --- API keys ----------------------------------------------------------------------------------------------

const KEY_STATE_BADGE: Record<ApiKeyInfo["state"], React.ReactNode> = {
  active: <Badge tone="green">Active</Badge>,
  expired: <Badge>Expired</Badge>,
  revoked: <Badge tone="red">Revoked</Badge>,
};

type CreatedKey = { keyId: string; apiKey: string; expiresAt: string | null };

function ApiKeysSection({ p, onShow }: { p: PartnerDetails; onShow: (shown: Shown) => void }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [status, setStatus] = useState("");
  const [revoking, setRevoking] = useState<ApiKeyInfo | null>(null);
  const [rotating, setRotating] = useState<ApiKeyInfo | null>(null);

  const createForm = useSchemaForm(CreateApiKeyFormSchema, {
    defaultValues: { expiresInDays: "" },
  });
  const create = submitShowingErrors(createForm, ["expiresInDays"], async (input) => {
    setStatus("");
    const key = await apiFetch<CreatedKey>(`/api/admin/partners/${p.partnerId}/keys`, {
      method: "POST",
      body: input,
    });
    createForm.reset();
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

  const revoke = useMutation({
    mutationFn: (key: ApiKeyInfo) => apiFetch(`/api/admin/keys/${key.keyId}/revoke`, { method: "POST" }),
    onSuccess: async (_data, key) => {
      setRevoking(null);
      setStatus(`Key ${key.display} revoked: requests with it are refused from now on.`);
      await refresh();
    },
  });

  const rotateForm = useSchemaForm(RotateApiKeyInputSchema, {
    defaultValues: { overlapHours: 24 },
  });
  const rotate = submitShowingErrors(rotateForm, ["overlapHours"], async (input) => {
    if (!rotating) return;
    const rotated = await apiFetch<CreatedKey & { oldKeyExpiresAt: string }>(
      `/api/admin/keys/${rotating.keyId}/rotate`,
      { method: "POST", body: input },
    );
    const old = rotating;
    setRotating(null);
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
  });

  return (
    <Section
      id="keys-heading"
      title="API keys"
      description="Sent as Authorization: senderKey <key>. Shown once when made; here only their first and last characters."
    >
      <form noValidate onSubmit={create} className="flex flex-wrap items-end gap-2">
        <Field
          label="Expires after (days)"
          error={createForm.formState.errors.expiresInDays?.message}
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
              {...createForm.register("expiresInDays")}
            />
          )}
        </Field>
        <Button type="submit" variant="primary" disabled={createForm.formState.isSubmitting} className="mb-5">
          {createForm.formState.isSubmitting ? "Creating…" : "Create API key"}
        </Button>
      </form>
      <ErrorMessage>{createForm.formState.errors.root?.server?.message}</ErrorMessage>
      <StatusMessage>{status}</StatusMessage>
      <div className="overflow-x-auto">
        <table className={TABLE_CLASS}>
          <caption className="sr-only">API keys of {p.name}</caption>
          <thead className={THEAD_CLASS}>
            <tr>
              <th scope="col" className={TH_CLASS}>
                Key
              </th>
              <th scope="col" className={TH_CLASS}>
                Status
              </th>
              <th scope="col" className={TH_CLASS}>
                Created
              </th>
              <th scope="col" className={TH_CLASS}>
                Last used
              </th>
              <th scope="col" className={TH_CLASS}>
                Expires
              </th>
              <th scope="col" className={TH_CLASS}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {p.apiKeys.map((k) => (
              <tr key={k.keyId} className={TR_CLASS}>
                <td className={TD_CLASS}>
                  <span className="font-mono">{k.display}</span>
                  <div className="font-mono text-xs text-slate-500">{k.keyId}</div>
                </td>
                <td className={TD_CLASS}>{KEY_STATE_BADGE[k.state]}</td>
                <td className={TD_CLASS}>
                  <LocalTime iso={k.createdAt} />
                </td>
                <td className={TD_CLASS}>
                  {k.lastUsedAt ? <LocalTime iso={k.lastUsedAt} /> : <span className="text-slate-500">never</span>}
                </td>
                <td className={TD_CLASS}>
                  {k.revokedAt ? (
                    <span className="text-slate-500">
                      revoked <LocalTime iso={k.revokedAt} />
                    </span>
                  ) : k.expiresAt ? (
                    <LocalTime iso={k.expiresAt} />
                  ) : (
                    <span className="text-slate-500">never</span>
                  )}
                </td>
                <td className={`${TD_CLASS} whitespace-nowrap text-right`}>
                  {k.state === "active" && (
                    <span className="inline-flex gap-1">
                      <Button
                        onClick={() => {
                          rotateForm.reset({ overlapHours: 24 });
                          setRotating(k);
                        }}
                      >
                        Rotate<span className="sr-only"> key {k.display}</span>
                      </Button>
                      <Button
                        variant="danger"
                        onClick={() => {
                          revoke.reset();
                          setRevoking(k);
                        }}
                      >
                        Revoke<span className="sr-only"> key {k.display}</span>
                      </Button>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {p.apiKeys.length === 0 && <p className="px-2 py-3 text-slate-600">No API keys. Create one above.</p>}
      </div>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke key ${revoking?.display ?? ""}?`}
        description={`Requests from ${p.name} with this key are refused (401) at once. This cannot be undone; make a new key if it is still needed.`}
        confirmLabel="Revoke key"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        error={revoke.error ? messageOf(revoke.error) : null}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      />
      <ConfirmDialog
        open={rotating !== null}
        title={`Rotate key ${rotating?.display ?? ""}?`}
        description="A new key is made and shown once. The old key keeps working for the overlap you choose, so the partner can switch without an outage, then expires."
        confirmLabel="Rotate key"
        pendingLabel="Rotating…"
        variant="primary"
        pending={rotateForm.formState.isSubmitting}
        error={rotateForm.formState.errors.root?.server?.message}
        onCancel={() => setRotating(null)}
        onConfirm={() => void rotate()}
      >
        <OverlapField form={rotateForm} max={MAX_KEY_OVERLAP_HOURS} label="Old key keeps working for (hours)" />
      </ConfirmDialog>
    </Section>
  );
}

// --- OAuth clients -----------------------------------------------------------------------------------------

function OAuthClientsSection({ p, onShow }: { p: PartnerDetails; onShow: (shown: Shown) => void }) {
  const refresh = usePartnerRefresh(p.partnerId);
  const [status, setStatus] = useState("");
  const [revoking, setRevoking] = useState<OAuthClientInfo | null>(null);
  const create = useMutation({
    mutationFn: () =>
      apiFetch<{ clientId: string; clientSecret: string }>(`/api/admin/partners/${p.partnerId}/oauth-clients`, {
        method: "POST",
      }),
    onSuccess: async (client) => {
      onShow({
        title: `New OAuth client for ${p.name}`,
        secrets: [
          { label: "OAuth client ID", value: client.clientId, isSecret: false },
          { label: "OAuth client secret", value: client.clientSecret },
        ],
        note: <p>The partner trades these for short-lived bearer tokens at POST /oauth/token (client credentials).</p>,
      });
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (client: OAuthClientInfo) =>
      apiFetch(`/api/admin/oauth-clients/${client.clientId}/revoke`, { method: "POST" }),
    onSuccess: async (_data, client) => {
      setRevoking(null);
      setStatus(`OAuth client ${client.clientId} revoked; its tokens no longer work.`);
      await refresh();
    },
  });
  return (
    <Section
      id="oauth-heading"
      title="OAuth clients"
      description="Client credentials for bearer tokens. Revoking a client ends its tokens at once."
    >
      <div className="flex items-center gap-2">
        <Button variant="primary" onClick={() => create.mutate()} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create OAuth client"}
        </Button>
        <StatusMessage>{status}</StatusMessage>
      </div>
      {create.error && <ErrorMessage>{messageOf(create.error)}</ErrorMessage>}
      <div className="overflow-x-auto">
        <table className={TABLE_CLASS}>
          <caption className="sr-only">OAuth clients of {p.name}</caption>
          <thead className={THEAD_CLASS}>
            <tr>
              <th scope="col" className={TH_CLASS}>
                Client ID
              </th>
              <th scope="col" className={TH_CLASS}>
                Status
              </th>
              <th scope="col" className={TH_CLASS}>
                Created
              </th>
              <th scope="col" className={TH_CLASS}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {p.oauthClients.map((c) => (
              <tr key={c.clientId} className={TR_CLASS}>
                <td className={`${TD_CLASS} font-mono`}>{c.clientId}</td>
                <td className={TD_CLASS}>
                  {c.state === "active" ? (
                    <Badge tone="green">Active</Badge>
                  ) : (
                    <Badge tone="red">Revoked {c.revokedAt && <LocalTime iso={c.revokedAt} style="date" />}</Badge>
                  )}
                </td>
                <td className={TD_CLASS}>
                  <LocalTime iso={c.createdAt} />
                </td>
                <td className={`${TD_CLASS} text-right`}>
                  {c.state === "active" && (
                    <Button
                      variant="danger"
                      onClick={() => {
                        revoke.reset();
                        setRevoking(c);
                      }}
                    >
                      Revoke<span className="sr-only"> OAuth client {c.clientId}</span>
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {p.oauthClients.length === 0 && <p className="px-2 py-3 text-slate-600">No OAuth clients.</p>}
      </div>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke OAuth client ${revoking?.clientId ?? ""}?`}
        description="The client can no longer get tokens, and every token it already has stops working at once."
        confirmLabel="Revoke client"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        error={revoke.error ? messageOf(revoke.error) : null}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      />
    </Section>
  );
}

// --- The page ----------------------------------------------------------------------------------------------

/** `callbackUrlHint`: what this server's mode allows (lib/partners/npi-policy.ts), from the page. */
export function PartnerDetailView({ initial, callbackUrlHint }: { initial: PartnerDetails; callbackUrlHint: string }) {
  const query = useQuery({
    queryKey: ["admin", "partner", initial.partnerId],
    queryFn: () => apiFetch<PartnerDetails>(`/api/admin/partners/${initial.partnerId}`, { background: true }),
    initialData: initial,
    refetchInterval: 30_000,
  });
  const p = query.data;
  const [shown, setShown] = useState<Shown | null>(null);
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h1 className="text-lg font-semibold">
            {p.name} {p.suspended ? <Badge tone="red">Suspended</Badge> : <Badge tone="green">Active</Badge>}
          </h1>
          <p className="text-xs text-slate-500">
            <span className="font-mono">{p.partnerId}</span> · added <LocalTime iso={p.createdAt} />
            {p.suspendedAt && (
              <>
                {" "}
                · suspended <LocalTime iso={p.suspendedAt} />
              </>
            )}
          </p>
        </div>
        <SuspensionControl p={p} />
      </div>
      {query.error && <ErrorMessage>This partner could not be refreshed: {messageOf(query.error)}</ErrorMessage>}
      {shown && (
        <SecretPanel
          key={shown.secrets.map((s) => s.value).join(" ")}
          title={shown.title}
          secrets={shown.secrets}
          onDone={() => setShown(null)}
        >
          {shown.note}
        </SecretPanel>
      )}
      <TrafficSection p={p} />
      <ApiKeysSection p={p} onShow={setShown} />
      <OAuthClientsSection p={p} onShow={setShown} />
      <div className="grid gap-3 lg:grid-cols-2">
        <CallbackUrlForm p={p} hint={callbackUrlHint} />
        <ProfileForm p={p} />
      </div>
      <div className="grid gap-3 lg:grid-cols-2">
        <OutboundCredentialForm p={p} />
        <WebhookSecretSection p={p} onShow={setShown} />
      </div>
    </div>
  );
}
