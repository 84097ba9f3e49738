// DELETE /api/admin/stores/{storeId}: requests naming this store's NPI are refused from now on. The store
// configured as PHARMACY_NPI cannot be removed here (409). Audited.
import { adminActor } from "@/lib/admin/admin-actor";
import { dashboardRoute, json } from "@/lib/http/dashboard-api";
import { removeStore } from "@/lib/stores/manage-stores";

export const dynamic = "force-dynamic";

export const DELETE = dashboardRoute<{ storeId: string }>(async (ctx) => {
  await removeStore(ctx.params.storeId, adminActor(ctx));
  return json({ storeId: ctx.params.storeId, removed: true });
});
