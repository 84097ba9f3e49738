// PUT /api/admin/partners/{partnerId}/suspension {suspended}: a suspended partner's keys and tokens stop
// working at once (and work again when it is resumed). Audited.
import { adminActor } from "@/lib/audit/actor";
import { SuspensionInputSchema } from "@/lib/partners/partner-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { setPartnerSuspended } from "@/lib/partners/set-partner-suspended";

export const dynamic = "force-dynamic";

export const PUT = dashboardRoute<{ partnerId: string }>(async (ctx) => {
  const { suspended } = await readJsonBody(ctx.request, SuspensionInputSchema);
  await setPartnerSuspended({ partnerId: ctx.params.partnerId, suspended, actor: adminActor(ctx) });
  return json({ partnerId: ctx.params.partnerId, suspended });
});
