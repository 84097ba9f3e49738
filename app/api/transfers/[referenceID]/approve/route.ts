// POST /api/transfers/{referenceID}/approve {drugSchedule?, oneTimeTransferConfirmed?, localRxNumber?, note?}: CONFIRMED to
// the sender, unless a drug rule refuses it (422 problem+json naming the rule: approval-rules.ts).
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { approveTransfer, ApproveInputSchema } from "@/lib/transfers/decision";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ referenceID: string }>(async ({ request, params, user, clientAddress }) => {
  const approval = await readJsonBody(request, ApproveInputSchema);
  return json(await approveTransfer({ transferId: params.referenceID, actor: user, clientAddress, approval }));
});
