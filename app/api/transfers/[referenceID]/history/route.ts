// GET /api/transfers/{referenceID}/history: the patient's other transfers, how each matched, duplicate therapy
// and the next pending transfer of the same patient (audited as transfer.history_viewed).
import { dashboardRoute, json } from "@/lib/http/problem-api";
import { getPatientHistory } from "@/lib/transfers/review";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute<{ referenceID: string }>(async ({ params, user, clientAddress }) =>
  json(await getPatientHistory({ referenceID: params.referenceID, actor: user, clientAddress })),
);
