// POST /api/admin/partners/{partnerId}/webhook-secret {overlapHours}: a new webhook signing secret, shown
// this once; callbacks carry both signatures until the old secret expires after the overlap. Audited.
import { adminActor } from "@/lib/admin/admin-actor";
import { RotateWebhookSecretInputSchema } from "@/lib/admin/admin-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/dashboard-api";
import { rotateWebhookSecret } from "@/lib/partners/manage-partners";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ partnerId: string }>(async (ctx) => {
  const { overlapHours } = await readJsonBody(ctx.request, RotateWebhookSecretInputSchema);
  return json(await rotateWebhookSecret(ctx.params.partnerId, overlapHours, adminActor(ctx)), 201);
});
