// POST /api/session/logout[?reason=idle]: ends the session (clears next-auth's cookie) and
// records it. Public in the access policy: a session that has already idled out can still be cleared.
import { signOut } from "@/auth";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { currentUser } from "@/lib/auth/require-user";
import { errorToProblem } from "@/lib/http/dashboard-api";
import { clientAddressOf, requestIdOf } from "@/lib/http/request-context";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    // The idle logoff names its reason in the query (a bodiless POST); older pages sent it in the body.
    const byQuery = new URL(request.url).searchParams.get("reason") === "idle";
    const reason = byQuery || /"reason"\s*:\s*"idle"/.test(await request.text()) ? "idle" : "user";
    const user = await currentUser();
    if (user) {
      await recordAuditEvent({
        userId: user.id,
        actor: user.email,
        action: reason === "idle" ? "auth.idle_logoff" : "auth.signed_out",
        clientAddress: clientAddressOf(request),
      });
    }
    await signOut({ redirect: false });
    return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  } catch (err) {
    return errorToProblem(err, requestIdOf(request));
  }
}
