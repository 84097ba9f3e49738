// `transfers fhir <referenceID>`: the approved transfer's FHIR R4 Bundle on stdout (the same JSON with or
// without --json), for loading by hand into a dispensing system. Audited as the download is.
import { CLI_ACTOR } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { CliResult } from "@/lib/cli/commands";
import { DomainError } from "@/lib/errors";
import { getTransferBundle } from "@/lib/fhir/get-transfer-bundle";

export async function runTransfersFhir(referenceID: string | undefined): Promise<CliResult> {
  if (!referenceID) throw new DomainError("invalid_input", "transfers fhir <referenceID>: the reference id is required");
  const bundle = await getTransferBundle({ referenceID });
  await recordAuditEvent({ userId: CLI_ACTOR.userId, actor: CLI_ACTOR.label, action: "transfer.fhir_downloaded", transferId: referenceID, details: { via: "cli" } });
  return { json: bundle, human: JSON.stringify(bundle, null, 2) };
}
