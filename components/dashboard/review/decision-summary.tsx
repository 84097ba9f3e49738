"use client";
// A decided transfer's decision in one line: what, by whom and when, what the sender was told, and for an
// approval the printable record and the FHIR download.
import Link from "next/link";
import { FhirDownload } from "@/components/dashboard/review/fhir-download";
import { LocalTime } from "@/components/ui/local-time";
import { ERROR_TYPE_LABELS } from "@/lib/transfers/decision/client-safe";
import type { TransferActivity } from "@/lib/transfers/record";

export function DecisionSummary({
  referenceID,
  decision,
}: {
  referenceID: string;
  decision: NonNullable<TransferActivity["decision"]>;
}) {
  return (
    <p className="rounded border border-slate-300 bg-white px-3 py-1.5">
      {decision.decision === "APPROVED" ? (
        "Approved"
      ) : (
        <>
          Rejected ({ERROR_TYPE_LABELS[decision.errorType as keyof typeof ERROR_TYPE_LABELS] ?? "error"}{" "}
          <code className="text-xs text-slate-600">{decision.errorType ?? "ERROR"}</code>)
        </>
      )}{" "}
      by <strong>{decision.pharmacistName}</strong> at <LocalTime iso={decision.decidedAt} />.
      {decision.description && (
        <span className="mt-1 block">
          Sent to the sender: <q className="font-medium">{decision.description}</q>
        </span>
      )}
      {decision.decision === "APPROVED" && (
        <>
          {" "}
          <Link
            href={`/transfers/${referenceID}/record`}
            prefetch={false}
            className="font-medium text-blue-700 underline"
          >
            Printable transfer record
          </Link>
          <FhirDownload referenceID={referenceID} />
        </>
      )}
    </p>
  );
}
