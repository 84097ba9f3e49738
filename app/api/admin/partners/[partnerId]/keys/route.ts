// POST /api/admin/partners/{partnerId}/keys {expiresInDays?}: another API key for the partner, returned this
// once (201); only its SHA-256 is stored. Audited.
import { adminActor } from "@/lib/audit/actor";
import { CreateApiKeyInputSchema } from "@/lib/partners/partner-inputs";
import { createApiKey } from "@/lib/auth/create-api-key";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { assertPartnerExists } from "@/lib/partners/partner-guards";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ partnerId: string }>(async (ctx) => {
  const { expiresInDays } = await readJsonBody(ctx.request, CreateApiKeyInputSchema);
  await assertPartnerExists(ctx.params.partnerId);
  const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : undefined;
  const key = await createApiKey({ partnerId: ctx.params.partnerId, expiresAt, actor: adminActor(ctx) });
  return json({ ...key, partnerId: ctx.params.partnerId, expiresAt: expiresAt?.toISOString() ?? null }, 201);
});
