// PATCH /api/admin/users/{userId} {role} or {disabled}: change a user's role, disable or enable them. Their
// open sessions end at once; the last active admin can be neither demoted nor disabled (409). Audited.
import { adminActor } from "@/lib/admin/admin-actor";
import { UpdateUserInputSchema } from "@/lib/admin/admin-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/dashboard-api";
import { changeUserRole, setUserDisabled } from "@/lib/users/manage-users";

export const dynamic = "force-dynamic";

export const PATCH = dashboardRoute<{ userId: string }>(async (ctx) => {
  const input = await readJsonBody(ctx.request, UpdateUserInputSchema);
  const actor = adminActor(ctx);
  if (input.role !== undefined) await changeUserRole(ctx.params.userId, input.role, actor);
  else if (input.disabled !== undefined) await setUserDisabled(ctx.params.userId, input.disabled, actor);
  return json({ userId: ctx.params.userId, ...input });
});
