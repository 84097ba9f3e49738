// GET /api/admin/audit/export?user&action&transfer&from&to: the matching records as CSV (oldest first),
// streamed in batches; spreadsheet formulas neutralised (lib/csv.ts). The export is audited.
import { adminActor } from "@/lib/audit/actor";
import { exportAuditLog } from "@/lib/audit/export-audit-log";
import { parseAuditQuery } from "@/lib/audit/audit-query";
import { csvDownload } from "@/lib/http/csv-download";
import { dashboardRoute } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async (ctx) => {
  const query = parseAuditQuery(new URL(ctx.request.url).searchParams);
  const exported = await exportAuditLog({ query, actor: adminActor(ctx) });
  return csvDownload({
    lines: exported.lines,
    filename: exported.filename,
    count: exported.records,
    what: "audit export",
    requestId: ctx.requestId,
  });
});
