// POST /api/admin/partners/{partnerId}/oauth-clients: another OAuth client for the partner; the secret is
// returned this once (201). Audited.
import { adminActor } from "@/lib/audit/actor";
import { createOAuthClient } from "@/lib/auth/create-oauth-client";
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { assertPartnerExists } from "@/lib/partners/partner-guards";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ partnerId: string }>(async (ctx) => {
  await assertPartnerExists(ctx.params.partnerId);
  const client = await createOAuthClient({ partnerId: ctx.params.partnerId, actor: adminActor(ctx) });
  return json({ clientId: client.clientId, clientSecret: client.clientSecret, partnerId: ctx.params.partnerId }, 201);
});
