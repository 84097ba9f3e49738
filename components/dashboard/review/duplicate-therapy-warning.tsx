"use client";
// The duplicate-therapy warning: the same patient has another pending or approved transfer of the same
// substance (brand or generic, any strength) within the history's window. A warning, never a block.
import Link from "next/link";
import { formatLocal } from "@/components/ui/local-time";
import { usePatientHistory } from "@/components/dashboard/review/use-patient-history";

export function DuplicateTherapyWarning({ referenceID }: { referenceID: string }) {
  const history = usePatientHistory(referenceID);
  const duplicates = history.data?.entries.filter((e) => e.duplicateTherapy) ?? [];
  if (duplicates.length === 0) return null;
  return (
    <section
      role="alert"
      aria-labelledby="duplicate-therapy-heading"
      className="rounded border-2 border-red-700 bg-red-50 px-3 py-2 text-red-900"
    >
      <h2 id="duplicate-therapy-heading" className="font-semibold">
        Duplicate therapy: this patient has{" "}
        {duplicates.length === 1 ? "another transfer" : `${duplicates.length} other transfers`} of the same substance
        within {history.data?.duplicateTherapyDays} days
      </h2>
      <ul className="mt-1 list-disc pl-5">
        {duplicates.map((d) => (
          <li key={d.referenceID}>
            <Link
              href={`/transfers/${encodeURIComponent(d.referenceID)}`}
              prefetch={false}
              className="font-medium underline underline-offset-2"
            >
              {d.drug.name} {d.drug.strength}
            </Link>
            , {d.outcome === "approved" ? `approved${d.decidedBy ? ` by ${d.decidedBy}` : ""}` : "pending"}, received{" "}
            {formatLocal(d.receivedAt, "date")} from {d.sender}
          </li>
        ))}
      </ul>
    </section>
  );
}
