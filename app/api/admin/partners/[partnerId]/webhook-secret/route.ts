// POST /api/admin/partners/{partnerId}/webhook-secret {overlapHours}: a new webhook signing secret, shown
// this once; callbacks carry both signatures until the old secret expires after the overlap. Audited.
import { adminActor } from "@/lib/audit/actor";
import { RotateWebhookSecretInputSchema } from "@/lib/partners/partner-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { rotateWebhookSecret } from "@/lib/partners/rotate-webhook-secret";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ partnerId: string }>(async (ctx) => {
  const { overlapHours } = await readJsonBody(ctx.request, RotateWebhookSecretInputSchema);
  return json(
    await rotateWebhookSecret({ partnerId: ctx.params.partnerId, overlapHours, actor: adminActor(ctx) }),
    201,
  );
});
