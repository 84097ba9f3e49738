// GET /api/admin/partners/{partnerId}: the partner's details, keys (prefix…last4), OAuth clients, traffic
// and callback health. PATCH {name?, npis?}: rename it or change the NPIs it may send from (audited).
import { adminActor } from "@/lib/admin/admin-actor";
import { UpdatePartnerInputSchema } from "@/lib/admin/admin-inputs";
import { getPartnerDetails } from "@/lib/admin/partner-overview";
import { updatePartnerProfile } from "@/lib/admin/update-partner-profile";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/dashboard-api";

export const dynamic = "force-dynamic";

type Params = { partnerId: string };

export const GET = dashboardRoute<Params>(async ({ params }) => json(await getPartnerDetails(params.partnerId)));

export const PATCH = dashboardRoute<Params>(async (ctx) => {
  const input = await readJsonBody(ctx.request, UpdatePartnerInputSchema);
  return json(await updatePartnerProfile(ctx.params.partnerId, input, adminActor(ctx)));
});
