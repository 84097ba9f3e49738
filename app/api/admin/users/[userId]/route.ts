// PATCH /api/admin/users/{userId} {role} or {disabled}: change a user's role, disable or enable them. Their
// open sessions end at once; the last active admin can be neither demoted nor disabled (409). Audited.
import { adminActor } from "@/lib/audit/actor";
import { UpdateUserInputSchema } from "@/lib/users/user-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { changeUserRole } from "@/lib/users/change-user-role";
import { setUserDisabled } from "@/lib/users/set-user-disabled";

export const dynamic = "force-dynamic";

export const PATCH = dashboardRoute<{ userId: string }>(async (ctx) => {
  const input = await readJsonBody(ctx.request, UpdateUserInputSchema);
  const actor = adminActor(ctx);
  if (input.role !== undefined) await changeUserRole({ userId: ctx.params.userId, role: input.role, actor });
  else if (input.disabled !== undefined)
    await setUserDisabled({ userId: ctx.params.userId, disabled: input.disabled, actor });
  return json({ userId: ctx.params.userId, ...input });
});
