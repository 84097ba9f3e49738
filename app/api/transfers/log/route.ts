// GET /api/transfers/log?from&to&schedule&outcome&sort&dir&page: the transfer log's table (the export's
// filters, one sorted page of decided transfers); pharmacists and admins. Audited.
import { userActor } from "@/lib/audit/actor";
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { listDecidedTransfers, parseDecidedTransfersQuery } from "@/lib/transfers/record";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async (ctx) => {
  const params = new URL(ctx.request.url).searchParams;
  const query = parseDecidedTransfersQuery(
    Object.fromEntries(
      ["from", "to", "schedule", "outcome", "sort", "dir", "page"].map((k) => [k, params.get(k) ?? undefined]),
    ),
  );
  return json(await listDecidedTransfers(query, userActor(ctx.user, ctx.clientAddress)));
});
