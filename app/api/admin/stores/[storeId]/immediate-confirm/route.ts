// GET / PUT /api/admin/stores/{storeId}/immediate-confirm: the store's immediate-confirmation policy
// (lib/immediate-confirm). PUT takes any of its settings; 400 naming the field; audited as
// store.immediate_confirm_changed with the old and new versions.
import { adminActor } from "@/lib/audit/actor";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { findImmediateConfirmPolicy } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import { PolicyChangeSchema } from "@/lib/immediate-confirm/policy-rules";
import { setImmediateConfirmPolicy } from "@/lib/immediate-confirm/set-immediate-confirm-policy";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute<{ storeId: string }>(async (ctx) =>
  json(await findImmediateConfirmPolicy(ctx.params.storeId)),
);

export const PUT = dashboardRoute<{ storeId: string }>(async (ctx) => {
  const change = await readJsonBody(ctx.request, PolicyChangeSchema);
  return json(await setImmediateConfirmPolicy({ storeRef: ctx.params.storeId, change, actor: adminActor(ctx) }));
});
