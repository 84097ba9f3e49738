// GET /api/admin/integration-keys: every integration key (never the secret).
// POST /api/admin/integration-keys {name}: a new key for a dispensing system's interface engine, returned
// this once (201). Admins only (the access policy); audited.
import { adminActor } from "@/lib/audit/actor";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { CreateIntegrationKeyInputSchema } from "@/lib/integration/integration-key-input";
import { createIntegrationKey, listIntegrationKeys } from "@/lib/integration/integration-keys";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async () => json({ keys: await listIntegrationKeys() }));

export const POST = dashboardRoute(async (ctx) => {
  const { name } = await readJsonBody(ctx.request, CreateIntegrationKeyInputSchema);
  return json(await createIntegrationKey({ name, actor: adminActor(ctx) }), 201);
});
