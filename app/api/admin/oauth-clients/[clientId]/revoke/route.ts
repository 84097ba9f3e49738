// POST /api/admin/oauth-clients/{clientId}/revoke: the client and every token it was issued stop working at
// once. Audited.
import { adminActor } from "@/lib/audit/actor";
import { revokeOAuthClient } from "@/lib/auth/revoke-oauth-client";
import { DomainError } from "@/lib/errors";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ clientId: string }>(async (ctx) => {
  if (!(await revokeOAuthClient({ clientId: ctx.params.clientId, actor: adminActor(ctx) })))
    throw new DomainError("not_found", `no OAuth client ${ctx.params.clientId}`);
  return json({ clientId: ctx.params.clientId, revoked: true });
});
