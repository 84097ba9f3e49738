"use client";
// "Patient history" on the review screen: this patient's other transfers here, with outcome, drug, dates,
// who decided, and how each was matched (lib/transfers/review/get-patient-history.ts). It never blocks a
// decision: while it loads or when it fails, the rest of the screen works and the panel says so.
// Keyboard: `h` moves focus to the panel; each transfer is a link.
import Link from "next/link";
import { useRef, useState } from "react";
import { useShortcuts } from "@/components/dashboard/use-shortcuts";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { usePatientHistory } from "@/components/dashboard/review/use-patient-history";
import { errorTypeText } from "@/lib/transfers/decision/client-safe";
import type { HistoryEntry, HistoryMatchKind } from "@/lib/transfers/review";

const MATCH_TEXT: Record<HistoryMatchKind, string> = {
  "patient-id": "same sender's patient ID",
  "name-dob": "same name and date of birth",
};

export function matchText(entry: Pick<HistoryEntry, "matchedBy" | "dobDiffers">): string {
  const text = entry.matchedBy.map((m) => MATCH_TEXT[m]).join(" and ");
  return entry.dobDiffers ? `${text} (date of birth differs)` : text;
}

function Outcome({ entry }: { entry: HistoryEntry }) {
  if (entry.outcome === "pending") return <Badge tone="blue">Pending</Badge>;
  if (entry.outcome === "approved") return <Badge tone="green">Approved</Badge>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge tone="neutral">Rejected</Badge>
      {entry.errorType && <span className="text-xs text-slate-600">{errorTypeText(entry.errorType)}</span>}
    </span>
  );
}

export function PatientHistory({ referenceID }: { referenceID: string }) {
  const history = usePatientHistory(referenceID);
  const panel = useRef<HTMLElement>(null);
  const [oldestFirst, setOldestFirst] = useState(false);
  useShortcuts({ h: () => panel.current?.focus() });

  return (
    <section
      ref={panel}
      tabIndex={-1}
      aria-labelledby="patient-history-heading"
      className="rounded border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-700"
    >
      <h2
        id="patient-history-heading"
        className="border-b border-slate-200 bg-slate-50 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-slate-700"
      >
        Patient history
      </h2>
      <div className="px-3 py-2" aria-live="polite" aria-busy={history.isPending}>
        {history.isPending ? (
          <p role="status">Loading the patient&apos;s history…</p>
        ) : history.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-2 text-amber-900">
            <span>History could not be loaded. You can still decide this transfer.</span>
            <Button onClick={() => void history.refetch()}>Try again</Button>
          </div>
        ) : history.data.entries.length === 0 ? (
          <p>
            No other transfers for this patient here (matched on name and date of birth, and the sender&apos;s patient
            ID).
          </p>
        ) : (
          <>
            <Button
              className="float-right text-xs"
              aria-pressed={oldestFirst}
              onClick={() => setOldestFirst((v) => !v)}
            >
              Oldest first
            </Button>
            <table className="w-full text-left text-sm">
              <caption className="pb-1 text-left text-slate-700">
                {history.data.entries.length} other transfer{history.data.entries.length === 1 ? "" : "s"} for this
                patient, {oldestFirst ? "oldest" : "newest"} first
                {history.data.hasMore ? ` (only the latest ${history.data.entries.length} are listed)` : ""}
              </caption>
              <thead>
                <tr className="text-xs text-slate-600">
                  <th
                    scope="col"
                    className="py-1 pr-2 font-medium"
                    aria-sort={oldestFirst ? "ascending" : "descending"}
                  >
                    Received
                  </th>
                  <th scope="col" className="py-1 pr-2 font-medium">
                    Drug
                  </th>
                  <th scope="col" className="py-1 pr-2 font-medium">
                    Outcome
                  </th>
                  <th scope="col" className="py-1 pr-2 font-medium">
                    Decided by
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Matched by
                  </th>
                </tr>
              </thead>
              <tbody>
                {(oldestFirst ? [...history.data.entries].reverse() : history.data.entries).map((e) => (
                  <tr key={e.referenceID} className="border-t border-slate-100 align-top">
                    <td className="py-1 pr-2">
                      <Link
                        href={`/transfers/${encodeURIComponent(e.referenceID)}`}
                        prefetch={false}
                        className="text-sky-800 underline underline-offset-2"
                      >
                        <LocalTime iso={e.receivedAt} style="date" />
                        <span className="sr-only">
                          {" "}
                          {e.drug.name} {e.drug.strength}
                        </span>
                      </Link>
                      <div className="text-xs text-slate-600">from {e.sender}</div>
                    </td>
                    <td className="py-1 pr-2">
                      {e.drug.name} {e.drug.strength}
                      {e.duplicateTherapy && (
                        <div className="text-xs font-medium text-red-800">Same substance (duplicate therapy)</div>
                      )}
                    </td>
                    <td className="py-1 pr-2">
                      <Outcome entry={e} />
                    </td>
                    <td className="py-1 pr-2">
                      {e.decidedBy && e.decidedAt ? (
                        <>
                          {e.decidedBy}
                          <div className="text-xs text-slate-600">
                            <LocalTime iso={e.decidedAt} />
                          </div>
                        </>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className="py-1 text-xs">{matchText(e)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </div>
    </section>
  );
}
