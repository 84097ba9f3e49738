// PUT /api/admin/partners/{partnerId}/outbound-credential {headerName, headerValue}: the partner's own
// credential that our callbacks carry (the value is sealed at rest and never shown again).
// DELETE: callbacks go without it. Audited (the header name only).
import { adminActor } from "@/lib/audit/actor";
import { OutboundCredentialInputSchema } from "@/lib/partners/partner-inputs";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { setPartnerOutboundCredential } from "@/lib/partners/set-partner-outbound-credential";

export const dynamic = "force-dynamic";

type Params = { partnerId: string };

export const PUT = dashboardRoute<Params>(async (ctx) => {
  const input = await readJsonBody(ctx.request, OutboundCredentialInputSchema);
  await setPartnerOutboundCredential({
    partnerId: ctx.params.partnerId,
    header: { name: input.headerName, value: input.headerValue },
    actor: adminActor(ctx),
  });
  return json({ headerName: input.headerName });
});

export const DELETE = dashboardRoute<Params>(async (ctx) => {
  await setPartnerOutboundCredential({ partnerId: ctx.params.partnerId, header: null, actor: adminActor(ctx) });
  return json({ headerName: null });
});
