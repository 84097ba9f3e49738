// POST /api/admin/integration-keys/{keyId}/revoke: the key stops working at once. Audited.
import { adminActor } from "@/lib/audit/actor";
import { DomainError } from "@/lib/errors";
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { revokeIntegrationKey } from "@/lib/integration/integration-keys";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ keyId: string }>(async (ctx) => {
  if (!(await revokeIntegrationKey({ keyId: ctx.params.keyId, actor: adminActor(ctx) })))
    throw new DomainError("not_found", `no integration key ${ctx.params.keyId}`);
  return json({ keyId: ctx.params.keyId, revoked: true });
});
