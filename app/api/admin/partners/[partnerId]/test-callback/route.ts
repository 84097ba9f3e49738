// POST /api/admin/partners/{partnerId}/test-callback: send the partner a signed sample callback now
// (metadata.test: true) and answer with the attempt's outcome. Audited.
import { adminActor } from "@/lib/audit/actor";
import { sendTestCallback } from "@/lib/callbacks/send-test-callback";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ partnerId: string }>(async (ctx) =>
  json(await sendTestCallback(ctx.params.partnerId, adminActor(ctx))),
);
