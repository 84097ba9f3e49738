// PUT /api/admin/users/{userId}/license {licenseNumber}: the pharmacist's licence number, printed on the transfer
// records they approve from now on; null or "" clears it. Audited (user.license_changed, old and new value).
import { adminActor } from "@/lib/admin/admin-actor";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/dashboard-api";
import { setUserLicenseNumber } from "@/lib/users/manage-users";
import { LicenseInputSchema } from "@/lib/users/user-inputs";

export const dynamic = "force-dynamic";

export const PUT = dashboardRoute<{ userId: string }>(async (ctx) => {
  const { licenseNumber } = await readJsonBody(ctx.request, LicenseInputSchema);
  return json(await setUserLicenseNumber(ctx.params.userId, licenseNumber, adminActor(ctx)));
});
