// POST /api/admin/keys/{keyId}/rotate {overlapHours}: a new key for the same partner, returned this once
// (201); the old key keeps working until the overlap ends. Audited.
import { adminActor } from "@/lib/audit/actor";
import { RotateApiKeyInputSchema } from "@/lib/partners/partner-inputs";
import { rotateApiKey } from "@/lib/auth/rotate-api-key";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ keyId: string }>(async (ctx) => {
  const { overlapHours } = await readJsonBody(ctx.request, RotateApiKeyInputSchema);
  const rotated = await rotateApiKey({ keyId: ctx.params.keyId, overlapHours, actor: adminActor(ctx) });
  return json({ ...rotated, oldKeyId: ctx.params.keyId }, 201);
});
