// GET /api/integration/transfers?since=<cursor>&limit=<1-100>: approved transfers after the cursor, in
// approval order, each with its FHIR R4 Bundle; `nextCursor` continues. Integration key required.
import { namedActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { DomainError } from "@/lib/errors";
import { integrationRoute } from "@/lib/http/problem-api";
import { json } from "@/lib/http/api-exchange";
import { decodeFeedCursor } from "@/lib/integration/feed-cursor";
import { FEED_PAGE_MAX, listIntegrationFeed } from "@/lib/integration/list-feed";

export const dynamic = "force-dynamic";

export const GET = integrationRoute(async (ctx) => {
  const params = new URL(ctx.request.url).searchParams;
  const since = params.get("since");
  const after = since === null || since === "" ? 0n : decodeFeedCursor(since);
  if (after === null)
    throw new DomainError(
      "invalid_input",
      "since: not a cursor of this feed; start without it, or pass a nextCursor you were given.",
    );
  const limitText = params.get("limit") ?? "50";
  if (!/^[1-9]\d{0,2}$/.test(limitText) || Number(limitText) > FEED_PAGE_MAX) {
    throw new DomainError("invalid_input", `limit: must be a whole number from 1 to ${FEED_PAGE_MAX}.`);
  }
  const page = await listIntegrationFeed({ after, limit: Number(limitText) });
  if (page.items.length > 0) {
    await recordAuditEvent({
      actor: namedActor(`integration:${ctx.keyId}`),
      action: "integration.feed_read",
      details: { keyId: ctx.keyId, transferIds: page.items.map((i) => i.referenceID) },
    });
  }
  return json(page, 200, { "cache-control": "no-store" });
});
