// GET /api/transfers: the review queue (filters, search, sort, keyset pages, counts per status). Audited
// (queue.searched / queue.viewed), except the screen's own background refresh of a page already shown.
import { BACKGROUND_HEADER } from "@/lib/auth/session-claims";
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { listQueue, parseQueueQuery } from "@/lib/transfers/queue";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async ({ request, user, clientAddress }) => {
  const query = parseQueueQuery(new URL(request.url).searchParams);
  return json(
    await listQueue(query, { actor: user, clientAddress, isBackground: request.headers.has(BACKGROUND_HEADER) }),
  );
});
