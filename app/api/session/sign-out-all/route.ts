// POST /api/session/sign-out-all: "Sign out all my sessions" — ends every session of the signed-in user,
// on every computer, this one included (its cookie is cleared too). Audited (auth.signed_out_everywhere).
import { signOut } from "@/auth";
import { userActor } from "@/lib/audit/actor";
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { endAllUserSessions } from "@/lib/auth/user-sessions";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute(async ({ user, clientAddress }) => {
  const result = await endAllUserSessions(user.id, userActor(user, clientAddress), "self");
  await signOut({ redirect: false });
  return json(result);
});
