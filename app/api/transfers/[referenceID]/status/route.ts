// GET /api/transfers/{referenceID}/status: status, claim, decision, callback and timeline (no patient data).
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { getTransferActivity } from "@/lib/transfers/record";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute<{ referenceID: string }>(async ({ params }) =>
  json(await getTransferActivity(params.referenceID)),
);
