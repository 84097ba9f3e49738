// POST /api/admin/keys/{keyId}/revoke: the key stops working at once. Audited.
import { adminActor } from "@/lib/audit/actor";
import { revokeApiKey } from "@/lib/auth/revoke-api-key";
import { DomainError } from "@/lib/errors";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ keyId: string }>(async (ctx) => {
  if (!(await revokeApiKey({ keyId: ctx.params.keyId, actor: adminActor(ctx) })))
    throw new DomainError("not_found", `no API key ${ctx.params.keyId}`);
  return json({ keyId: ctx.params.keyId, revoked: true });
});
