// GET /api/transfers/export?from&to&schedule&outcome: the transfer log for inspections as CSV (every element
// of the legal transfer record, oldest decision first), streamed in batches; pharmacists and admins. Audited.
import { userActor } from "@/lib/audit/actor";
import { csvDownload } from "@/lib/http/csv-download";
import { dashboardRoute } from "@/lib/http/problem-api";
import { exportTransfers, parseTransferExportQuery } from "@/lib/transfers/record";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async (ctx) => {
  const params = new URL(ctx.request.url).searchParams;
  const query = parseTransferExportQuery(
    Object.fromEntries(["from", "to", "schedule", "outcome"].map((k) => [k, params.get(k) ?? undefined])),
  );
  const exported = await exportTransfers(query, userActor(ctx.user, ctx.clientAddress));
  return csvDownload({
    lines: exported.lines,
    filename: exported.filename,
    count: exported.rows,
    what: "transfer export",
    requestId: ctx.requestId,
  });
});
