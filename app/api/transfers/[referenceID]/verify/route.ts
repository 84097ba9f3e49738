// POST /api/transfers/{referenceID}/verify: a pharmacist receives and verifies a transfer CONFIRMED
// automatically under the store's policy; it is released to the dispensing system (FHIR, feed) from then on.
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { verifyImmediateConfirmation } from "@/lib/immediate-confirm/verify-immediate-confirmation";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ referenceID: string }>(async ({ params, user, clientAddress }) =>
  json(await verifyImmediateConfirmation({ transferId: params.referenceID, actor: user, clientAddress })),
);
