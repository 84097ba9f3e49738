// GET /api/transfers/{referenceID}/callbacks: the transfer's callback and every attempt (time, status code
// or error, latency, manual or scheduled), oldest first; 404 before the transfer is decided.
import { findCallbackTimeline } from "@/lib/callbacks/find-callback-timeline";
import { DomainError } from "@/lib/errors";
import { dashboardRoute, json } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute<{ referenceID: string }>(async ({ params }) => {
  const timeline = await findCallbackTimeline(params.referenceID);
  if (!timeline) throw new DomainError("not_found", "this transfer has no callback (it is not decided yet)");
  return json(timeline);
});
