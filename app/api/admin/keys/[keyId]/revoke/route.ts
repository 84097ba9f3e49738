// POST /api/admin/keys/{keyId}/revoke: the key stops working at once. Audited.
import { adminActor } from "@/lib/admin/admin-actor";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { DomainError } from "@/lib/errors";
import { dashboardRoute, json } from "@/lib/http/dashboard-api";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ keyId: string }>(async (ctx) => {
  if (!(await revokeApiKey(ctx.params.keyId, adminActor(ctx))))
    throw new DomainError("not_found", `no API key ${ctx.params.keyId}`);
  return json({ keyId: ctx.params.keyId, revoked: true });
});
