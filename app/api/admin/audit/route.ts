// GET /api/admin/audit?user&action&transfer&from&to&order&cursor&limit: one page of the audit log, keyset
// on the record id (nextCursor for the next page).
import { parseAuditQuery } from "@/lib/audit/audit-query";
import { queryAuditLog } from "@/lib/audit/query-audit-log";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute(async ({ request }) =>
  json(await queryAuditLog(parseAuditQuery(new URL(request.url).searchParams))),
);
