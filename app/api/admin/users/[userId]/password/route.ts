// PUT /api/admin/users/{userId}/password {password}: a new password chosen by the admin; the user's open
// sessions end and a lockout is lifted. Audited (never the password).
import { adminActor } from "@/lib/admin/admin-actor";
import { ResetPasswordInputSchema } from "@/lib/admin/admin-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/dashboard-api";
import { resetUserPassword } from "@/lib/users/manage-users";

export const dynamic = "force-dynamic";

export const PUT = dashboardRoute<{ userId: string }>(async (ctx) => {
  const { password } = await readJsonBody(ctx.request, ResetPasswordInputSchema);
  await resetUserPassword(ctx.params.userId, password, adminActor(ctx));
  return json({ userId: ctx.params.userId, passwordReset: true });
});
