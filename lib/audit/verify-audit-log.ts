// The audit chain check, run by an admin from the audit screen (or the CLI) and recorded with its result.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { verifyAuditChain, type AuditChainReport } from "@/lib/audit/verify-audit-chain";

export type VerifyAuditLogOptions = { actor: Actor };

/** The chain check (lib/audit/verify-audit-chain.ts), run by an admin and recorded with its result. */
export async function verifyAuditLog({ actor }: VerifyAuditLogOptions): Promise<AuditChainReport> {
  const report = await verifyAuditChain();
  await recordAuditEvent({
    actor,
    action: "audit.chain_verified",
    details: report.ok
      ? { ok: true, records: report.records }
      : { ok: false, records: report.records, brokenAtId: report.brokenAt.id },
  });
  return report;
}
