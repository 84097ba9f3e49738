// POST /api/transfers/{referenceID}/concern {note}: a concern about a transfer CONFIRMED automatically; answers
// the sender's contact. It stays unverified and unreleased.
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";
import { ConcernInputSchema, raiseImmediateConcern } from "@/lib/immediate-confirm/raise-immediate-concern";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ referenceID: string }>(async ({ request, params, user, clientAddress }) => {
  const { note } = await readJsonBody(request, ConcernInputSchema);
  return json(await raiseImmediateConcern({ transferId: params.referenceID, note, actor: user, clientAddress }));
});
