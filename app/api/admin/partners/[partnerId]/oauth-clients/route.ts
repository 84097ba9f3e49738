// POST /api/admin/partners/{partnerId}/oauth-clients: another OAuth client for the partner; the secret is
// returned this once (201). Audited.
import { adminActor } from "@/lib/admin/admin-actor";
import { createOAuthClient } from "@/lib/auth/oauth";
import { dashboardRoute, json } from "@/lib/http/dashboard-api";
import { assertPartnerExists } from "@/lib/partners/create-partner";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ partnerId: string }>(async (ctx) => {
  await assertPartnerExists(ctx.params.partnerId);
  const client = await createOAuthClient(ctx.params.partnerId, adminActor(ctx));
  return json({ clientId: client.clientId, clientSecret: client.clientSecret, partnerId: ctx.params.partnerId }, 201);
});
