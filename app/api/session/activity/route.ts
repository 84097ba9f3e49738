// POST /api/session/activity: the page reports that its person is active (keys, pointer). The proxy has
// already moved the session's last-activity time forward; this answers how long the session now has.
import { sessionIdleMs } from "@/lib/auth/session-claims";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute(async () => json({ idleMs: sessionIdleMs(), at: new Date().toISOString() }));
