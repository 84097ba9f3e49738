// PUT /api/admin/partners/{partnerId}/suspension {suspended}: a suspended partner's keys and tokens stop
// working at once (and work again when it is resumed). Audited.
import { adminActor } from "@/lib/admin/admin-actor";
import { SuspensionInputSchema } from "@/lib/admin/admin-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/dashboard-api";
import { setPartnerSuspended } from "@/lib/partners/manage-partners";

export const dynamic = "force-dynamic";

export const PUT = dashboardRoute<{ partnerId: string }>(async (ctx) => {
  const { suspended } = await readJsonBody(ctx.request, SuspensionInputSchema);
  await setPartnerSuspended(ctx.params.partnerId, suspended, adminActor(ctx));
  return json({ partnerId: ctx.params.partnerId, suspended });
});
