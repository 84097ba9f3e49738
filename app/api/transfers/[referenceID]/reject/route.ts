// POST /api/transfers/{referenceID}/reject {errorType, description}: ERROR to the sender.
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { RejectInputSchema, rejectTransfer } from "@/lib/transfers/decision";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ referenceID: string }>(async ({ request, params, user, clientAddress }) => {
  const rejection = await readJsonBody(request, RejectInputSchema);
  return json(await rejectTransfer({ transferId: params.referenceID, actor: user, clientAddress, rejection }));
});
