// GET /api/transfers: the review queue (filters, search, sort, keyset pages, counts per status).
import { dashboardRoute, json } from "@/lib/http/dashboard-api";
import { listQueue, parseQueueQuery } from "@/lib/transfers/list-queue";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async ({ request, user, clientAddress }) => {
  const query = parseQueueQuery(new URL(request.url).searchParams);
  return json(await listQueue(query, { actor: user, clientAddress }));
});
