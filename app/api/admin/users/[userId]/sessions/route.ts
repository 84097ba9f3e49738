// DELETE /api/admin/users/{userId}/sessions: "End this user's sessions" — every open session of that user
// ends at once (they can sign in again; disable them to keep them out). Audited (user.sessions_ended).
import { adminActor } from "@/lib/audit/actor";
import { endAllUserSessions } from "@/lib/auth/user-sessions";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const DELETE = dashboardRoute<{ userId: string }>(async (ctx) =>
  json(await endAllUserSessions(ctx.params.userId, adminActor(ctx), "admin")),
);
