// POST /api/transfers/{referenceID}/claim: claim (or renew) the transfer for review.
// DELETE: release it. 409 problem+json when another pharmacist holds it or it is already decided.
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { claimTransfer, releaseClaim } from "@/lib/transfers/decision";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ referenceID: string }>(async ({ params, user, clientAddress }) =>
  json(await claimTransfer({ transferId: params.referenceID, actor: user, clientAddress })),
);

export const DELETE = dashboardRoute<{ referenceID: string }>(async ({ params, user, clientAddress }) =>
  json({ released: await releaseClaim({ transferId: params.referenceID, actor: user, clientAddress }) }),
);
