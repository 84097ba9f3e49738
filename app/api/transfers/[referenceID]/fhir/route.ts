// GET /api/transfers/{referenceID}/fhir: the approved transfer's FHIR R4 Bundle as a file download, for
// pharmacists and admins (the review screen's and the record page's download button). Audited.
import { userActor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { getTransferBundle } from "@/lib/fhir/get-transfer-bundle";
import { dashboardRoute } from "@/lib/http/problem-api";

export const dynamic = "force-dynamic";

export const GET = dashboardRoute<{ referenceID: string }>(async (ctx) => {
  const bundle = await getTransferBundle({ referenceID: ctx.params.referenceID });
  await recordAuditEvent({
    actor: userActor(ctx.user, ctx.clientAddress),
    action: "transfer.fhir_downloaded",
    transferId: ctx.params.referenceID,
  });
  return new Response(JSON.stringify(bundle, null, 2), {
    status: 200,
    headers: {
      "content-type": "application/fhir+json; charset=utf-8",
      "content-disposition": `attachment; filename="${ctx.params.referenceID}.fhir.json"`,
      "cache-control": "no-store",
    },
  });
});
