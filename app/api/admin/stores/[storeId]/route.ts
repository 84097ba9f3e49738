// PATCH /api/admin/stores/{storeId} {extraSchedules?, rxExpiryMonths?}: the store's drug rules (state schedules
// on top of the federal table; months a non-controlled prescription stays valid). Its pending transfers are
// classified again at once. Audited with the old and new values.
// DELETE /api/admin/stores/{storeId}: requests naming this store's NPI are refused from now on. The store
// configured as PHARMACY_NPI cannot be removed here (409). Audited.
import { adminActor } from "@/lib/audit/actor";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { removeStore } from "@/lib/stores/remove-store";
import { setStoreRules, StoreRulesChangeSchema } from "@/lib/stores/set-store-rules";

export const dynamic = "force-dynamic";

export const PATCH = dashboardRoute<{ storeId: string }>(async (ctx) => {
  const change = await readJsonBody(ctx.request, StoreRulesChangeSchema);
  return json(await setStoreRules({ storeRef: ctx.params.storeId, change, actor: adminActor(ctx) }));
});

export const DELETE = dashboardRoute<{ storeId: string }>(async (ctx) => {
  await removeStore({ storeId: ctx.params.storeId, actor: adminActor(ctx) });
  return json({ storeId: ctx.params.storeId, removed: true });
});
