// GET /api/admin/audit/export?user&action&transfer&from&to: the matching records as CSV (oldest first),
// streamed in batches; spreadsheet formulas neutralised (lib/admin/csv.ts). The export is audited.
import { adminActor } from "@/lib/admin/admin-actor";
import { exportAuditLog, parseAuditQuery } from "@/lib/admin/audit-log";
import { dashboardRoute } from "@/lib/http/dashboard-api";
import { errorFields, log } from "@/lib/log";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async (ctx) => {
  const query = parseAuditQuery(new URL(ctx.request.url).searchParams);
  const exported = await exportAuditLog(query, adminActor(ctx));
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await exported.lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (err) {
        log("error", "audit export failed", { requestId: ctx.requestId, ...errorFields(err) });
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
      "x-record-count": String(exported.records),
    },
  });
});
