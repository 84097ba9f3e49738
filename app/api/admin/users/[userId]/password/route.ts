// PUT /api/admin/users/{userId}/password {password}: a new password chosen by the admin; the user's open
// sessions end and a lockout is lifted. Audited (never the password).
import { adminActor } from "@/lib/audit/actor";
import { ResetPasswordInputSchema } from "@/lib/users/user-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { resetUserPassword } from "@/lib/users/reset-user-password";

export const dynamic = "force-dynamic";

export const PUT = dashboardRoute<{ userId: string }>(async (ctx) => {
  const { password } = await readJsonBody(ctx.request, ResetPasswordInputSchema);
  await resetUserPassword({ userId: ctx.params.userId, password, actor: adminActor(ctx) });
  return json({ userId: ctx.params.userId, passwordReset: true });
});
