// POST /api/session/logout[?reason=idle]: ends this session on the server (its user_sessions
// row, so a copy of the cookie stops working; the user's other sessions stay), clears next-auth's cookie,
// and records it. Public in the access policy: a session that has already idled out can still be cleared.
import { signOut } from "@/auth";
import { currentSession } from "@/lib/auth/require-user";
import { endUserSession } from "@/lib/auth/user-sessions";
import { errorToProblem } from "@/lib/http/problem-api";
import { readBodyLimited } from "@/lib/http/read-body";
import { clientAddressOf, requestIdOf } from "@/lib/http/request-context";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    // The idle logoff names its reason in the query (a bodiless POST); older pages sent it in the body,
    // read here only up to a few bytes: this route is public, so it must not buffer whatever is sent.
    const byQuery = new URL(request.url).searchParams.get("reason") === "idle";
    const body = byQuery ? null : await readBodyLimited(request, 1024);
    const reason = byQuery || (body?.ok && /"reason"\s*:\s*"idle"/.test(body.text)) ? "idle" : "user";
    const session = await currentSession();
    if (session) {
      await endUserSession({
        sessionId: session.sessionId,
        user: session.user,
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
