// GET /api/transfers/export?from&to&schedule&outcome: the transfer log for inspections as CSV (every element
// of the legal transfer record, oldest decision first), streamed in batches; pharmacists and admins. Audited.
import { dashboardRoute } from "@/lib/http/dashboard-api";
import { errorFields, log } from "@/lib/log";
import { exportTransfers, parseTransferExportQuery } from "@/lib/transfers/export-transfers";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async (ctx) => {
  const params = new URL(ctx.request.url).searchParams;
  const query = parseTransferExportQuery(Object.fromEntries(["from", "to", "schedule", "outcome"].map((k) => [k, params.get(k) ?? undefined])));
  const exported = await exportTransfers(query, { userId: ctx.user.id, label: ctx.user.email, clientAddress: ctx.clientAddress });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await exported.lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (err) {
        log("error", "transfer export failed", { requestId: ctx.requestId, ...errorFields(err) });
        controller.error(err);
      }
    },
    async cancel() {
      await exported.lines.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${exported.filename}"`,
      "cache-control": "no-store",
      "x-record-count": String(exported.rows),
    },
  });
});
