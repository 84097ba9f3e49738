"use client";
// "Next for this patient": a sender moving a whole profile sends several transfers for one person; this
// opens the next pending one of the same patient (same matching as the history) without going back to the
// queue, before or after deciding this one. Shortcut `n`. Says so when there is none.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useShortcuts } from "@/components/dashboard/use-shortcuts";
import { buttonClass } from "@/components/ui/button";
import { Kbd } from "@/components/ui/kbd";
import { usePatientHistory } from "@/components/dashboard/review/use-patient-history";

export function NextForPatient({ referenceID }: { referenceID: string }) {
  const router = useRouter();
  const next = usePatientHistory(referenceID).data?.nextForPatient ?? null;
  const [said, setSaid] = useState("");
  useShortcuts({
    n: () => {
      if (next) router.push(`/transfers/${encodeURIComponent(next.referenceID)}`);
      else setSaid("No other pending transfer for this patient.");
    },
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      {next && (
        <>
          <Link
            href={`/transfers/${encodeURIComponent(next.referenceID)}`}
            prefetch={false}
            className={buttonClass("secondary", "inline-flex items-center gap-1")}
          >
            Next for this patient <Kbd>n</Kbd>
          </Link>
          <span className="text-sm text-slate-700">
            {next.drug.name} {next.drug.strength}
            {next.pendingCount > 1
              ? ` · ${next.pendingCount} other pending for this patient`
              : " · 1 other pending for this patient"}
          </span>
        </>
      )}
      <span role="status" className="text-sm text-slate-700">
        {said}
      </span>
    </div>
  );
}
