// POST /api/transfers/{referenceID}/callbacks/redeliver: send the transfer's callback again now (same
// webhook-id, new timestamp). Signed-in pharmacists and admins (the access policy); audited; 202 with the
// callback's id once the delivery is queued. Problems as problem+json.
import { userActor } from "@/lib/audit/actor";
import { requestRedelivery } from "@/lib/callbacks/redeliver-callback";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ referenceID: string }>(async ({ params, user, clientAddress }) => {
  const { callbackId } = await requestRedelivery(params.referenceID, userActor(user, clientAddress));
  return json({ callbackId, queued: true }, 202);
});
