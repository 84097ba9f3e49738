// PUT /api/admin/users/{userId}/license {licenseNumber}: the pharmacist's licence number, printed on the transfer
// records they approve from now on; null or "" clears it. Audited (user.license_changed, old and new value).
import { adminActor } from "@/lib/audit/actor";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { setUserLicenseNumber } from "@/lib/users/set-user-license-number";
import { LicenseInputSchema } from "@/lib/users/user-inputs";

export const dynamic = "force-dynamic";

export const PUT = dashboardRoute<{ userId: string }>(async (ctx) => {
  const { licenseNumber } = await readJsonBody(ctx.request, LicenseInputSchema);
  return json(await setUserLicenseNumber({ userId: ctx.params.userId, licenseNumber, actor: adminActor(ctx) }));
});
