// PUT /api/admin/partners/{partnerId}/callback-url {callbackUrl}: where the partner's callbacks go. The URL
// is checked for form and, unless private networks are allowed, against SSRF (lib/partners/callback-url.ts).
import { adminActor } from "@/lib/audit/actor";
import { CallbackUrlInputSchema } from "@/lib/partners/partner-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { updatePartnerCallbackUrl } from "@/lib/partners/update-partner-callback-url";

export const dynamic = "force-dynamic";

export const PUT = dashboardRoute<{ partnerId: string }>(async (ctx) => {
  const { callbackUrl } = await readJsonBody(ctx.request, CallbackUrlInputSchema);
  return json({
    callbackUrl: await updatePartnerCallbackUrl({
      partnerId: ctx.params.partnerId,
      url: callbackUrl,
      actor: adminActor(ctx),
    }),
  });
});
