// GET /api/transfers/{referenceID}: the whole review (patient data: recorded as a view in the audit log).
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { getTransferReview } from "@/lib/transfers/review";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute<{ referenceID: string }>(async ({ params, user, clientAddress }) =>
  json(await getTransferReview(params.referenceID, { actor: user, clientAddress, screen: "api" })),
);
