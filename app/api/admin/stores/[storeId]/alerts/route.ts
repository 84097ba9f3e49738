// PUT /api/admin/stores/{storeId}/alerts {alertThresholdsMinutes, openingHours (null: always open), timeZone}:
// The store's alert settings. 400 naming the field; audited as store.alerts_changed.
import { adminActor } from "@/lib/audit/actor";
import { StoreAlertSettingsSchema } from "@/lib/alerts/alert-settings";
import { setStoreAlertSettings } from "@/lib/alerts/set-store-alert-settings";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const PUT = dashboardRoute<{ storeId: string }>(async (ctx) => {
  const change = await readJsonBody(ctx.request, StoreAlertSettingsSchema);
  return json(await setStoreAlertSettings({ storeId: ctx.params.storeId, change, actor: adminActor(ctx) }));
});
