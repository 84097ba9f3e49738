"use client";
// "Verify chain": the server walks the audit log's hash chain and says where, if anywhere, it breaks.
import { useMutation } from "@tanstack/react-query";
import { apiFetch, messageOf } from "@/components/admin/api";
import { ErrorMessage, StatusMessage } from "@/components/admin/notices";
import { Button } from "@/components/ui/button";
import type { AuditChainReport } from "@/lib/audit/verify-audit-chain";

export function VerifyChain() {
  const verify = useMutation({
    mutationFn: () => apiFetch<AuditChainReport>("/api/admin/audit/verify", { method: "POST" }),
  });
  const report = verify.data;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button onClick={() => verify.mutate()} disabled={verify.isPending}>
        {verify.isPending ? "Verifying…" : "Verify chain"}
      </Button>
      <StatusMessage className="font-medium">
        {report?.ok ? `Chain intact: all ${report.records.toLocaleString()} records verified.` : null}
      </StatusMessage>
      {report && !report.ok && (
        <ErrorMessage>
          Chain broken at record {report.brokenAt.id} ({report.brokenAt.action}, {report.brokenAt.at}):{" "}
          {report.brokenAt.reason}. {report.records.toLocaleString()} records before it verified.
        </ErrorMessage>
      )}
      {verify.error && <ErrorMessage>The chain could not be checked: {messageOf(verify.error)}</ErrorMessage>}
    </div>
  );
}
