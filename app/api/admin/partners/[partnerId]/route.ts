// GET /api/admin/partners/{partnerId}: the partner's details, keys (prefix…last4), OAuth clients, traffic
// and callback health. PATCH {name?, npis?}: rename it or change the NPIs it may send from (audited).
import { adminActor } from "@/lib/audit/actor";
import { UpdatePartnerInputSchema } from "@/lib/partners/partner-inputs";
import { getPartnerDetails } from "@/lib/partners/get-partner-details";
import { updatePartnerProfile } from "@/lib/partners/update-partner-profile";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

type Params = { partnerId: string };

export const GET = dashboardRoute<Params>(async ({ params }) => json(await getPartnerDetails(params.partnerId)));

export const PATCH = dashboardRoute<Params>(async (ctx) => {
  const input = await readJsonBody(ctx.request, UpdatePartnerInputSchema);
  return json(await updatePartnerProfile({ partnerId: ctx.params.partnerId, change: input, actor: adminActor(ctx) }));
});
