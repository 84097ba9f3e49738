// POST /api/admin/audit/verify: walks the audit log's hash chain (as `npm run cli -- audit verify` does) and
// reports whether it is intact or the first broken record. The check is itself recorded.
import { adminActor } from "@/lib/audit/actor";
import { verifyAuditLog } from "@/lib/audit/verify-audit-log";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute(async (ctx) => json(await verifyAuditLog({ actor: adminActor(ctx) })));
