// GET /api/admin/partners: every sending partner with its recent traffic and callback health.
// POST /api/admin/partners {name, callbackUrl, npis}: a new partner with its API key, OAuth client and
// webhook secret, returned this once (201). Admins only (the access policy); audited.
import { adminActor } from "@/lib/audit/actor";
import { CreatePartnerInputSchema } from "@/lib/partners/partner-inputs";
import { listPartnerSummaries } from "@/lib/partners/list-partner-summaries";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { createPartner } from "@/lib/partners/create-partner";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async () => json({ partners: await listPartnerSummaries() }));

export const POST = dashboardRoute(async (ctx) => {
  const input = await readJsonBody(ctx.request, CreatePartnerInputSchema);
  return json(await createPartner({ ...input, actor: adminActor(ctx) }), 201);
});
