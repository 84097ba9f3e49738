// POST /api/admin/keys/{keyId}/rotate {overlapHours}: a new key for the same partner, returned this once
// (201); the old key keeps working until the overlap ends. Audited.
import { adminActor } from "@/lib/admin/admin-actor";
import { RotateApiKeyInputSchema } from "@/lib/admin/admin-inputs";
import { rotateApiKey } from "@/lib/auth/api-keys";
import { dashboardRoute, json, readJsonBody } from "@/lib/http/dashboard-api";

export const dynamic = "force-dynamic";

export const POST = dashboardRoute<{ keyId: string }>(async (ctx) => {
  const { overlapHours } = await readJsonBody(ctx.request, RotateApiKeyInputSchema);
  const rotated = await rotateApiKey(ctx.params.keyId, overlapHours, adminActor(ctx));
  return json({ ...rotated, oldKeyId: ctx.params.keyId }, 201);
});
