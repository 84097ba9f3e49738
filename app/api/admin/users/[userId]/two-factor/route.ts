// DELETE /api/admin/users/{userId}/two-factor: reset a user's two-factor sign-in (lost phone). Their
// secret and recovery codes are dropped and every session of theirs ends. Audited (user.two_factor_reset).
import { adminActor } from "@/lib/audit/actor";
import { resetTwoFactor } from "@/lib/auth/two-factor/reset-two-factor";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const DELETE = dashboardRoute<{ userId: string }>(async (ctx) =>
  json(await resetTwoFactor(ctx.params.userId, adminActor(ctx))),
);
