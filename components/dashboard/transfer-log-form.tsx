"use client";
// The transfer log for inspections: a date range, a schedule and an outcome, the period's decided transfers
// as a table, and a submit button that downloads the CSV from /api/transfers/export (streamed; the download is audited). Days are the reader's calendar days, from
// midnight of the first to midnight after the last, in their own time zone; before hydration (or without
// JavaScript) the link carries the bare dates, which the server reads as UTC days.
import { useState, useSyncExternalStore } from "react";
import { Field } from "@/components/ui/field";
import { ANY_CONTROLLED_OPTION, CONTROLLED_SCHEDULES_NAME, SCHEDULE_OPTIONS } from "@/lib/drugs/schedule-names";
import { buttonClass } from "@/components/ui/button";
import { TransferLogTable } from "@/components/dashboard/transfer-log-table";

const LOG_SCHEDULE_OPTIONS = [
  { value: "all", label: "All transfers, controlled or not" } as const,
  ANY_CONTROLLED_OPTION,
  ...SCHEDULE_OPTIONS,
];

const OUTCOME_OPTIONS = [
  { value: "approved", label: "Approved (transfers received)" },
  { value: "rejected", label: "Rejected" },
  { value: "any", label: "Approved and rejected" },
] as const;

export type TransferLogFilters = {
  firstDay: string;
  lastDay: string;
  schedule: (typeof LOG_SCHEDULE_OPTIONS)[number]["value"];
  outcome: (typeof OUTCOME_OPTIONS)[number]["value"];
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const subscribe = () => () => {};

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Local midnight of a calendar day, as an instant. */
function localMidnight(day: string): string {
  return new Date(`${day}T00:00:00`).toISOString();
}

/** The filters as the export and the on-screen log read them. */
function periodParams(f: TransferLogFilters, inBrowser: boolean): URLSearchParams {
  const end = nextDay(f.lastDay);
  return new URLSearchParams({
    from: inBrowser ? localMidnight(f.firstDay) : f.firstDay,
    to: inBrowser ? localMidnight(end) : end,
    schedule: f.schedule,
    outcome: f.outcome,
  });
}

export function exportHref(f: TransferLogFilters, inBrowser: boolean): string {
  return `/api/transfers/export?${periodParams(f, inBrowser)}`;
}

function problemOf(f: TransferLogFilters): string | null {
  if (!DAY.test(f.firstDay)) return "Enter the first day.";
  if (!DAY.test(f.lastDay)) return "Enter the last day.";
  if (f.firstDay > f.lastDay) return "The first day must be on or before the last day.";
  return null;
}

export function TransferLogForm({ initial }: { initial: TransferLogFilters }) {
  const [filters, setFilters] = useState(initial);
  const timeZone = useSyncExternalStore(
    subscribe,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => null,
  );
  const problem = problemOf(filters);
  const set = <K extends keyof TransferLogFilters>(key: K, value: TransferLogFilters[K]) =>
    setFilters((f) => ({ ...f, [key]: value }));
  const inspection: TransferLogFilters = { ...initial, schedule: "any", outcome: "approved" };

  return (
    <div className="max-w-5xl space-y-4">
      <div>
        <h1 className="text-lg font-semibold">Transfer log</h1>
        <p className="text-slate-700">
          Every decided transfer of a period as a CSV file, one row per transfer with every element of the transfer
          record, for a board of pharmacy or DEA inspection. Records are never deleted. Each download is recorded in the
          audit log.
        </p>
      </div>

      <section aria-labelledby="inspection-heading" className="rounded border border-slate-200 bg-white p-3">
        <h2 id="inspection-heading" className="font-semibold">
          Controlled-substance transfers received, last 2 years
        </h2>
        <p className="text-sm text-slate-600">
          Approved transfers of {CONTROLLED_SCHEDULES_NAME} drugs decided from {initial.firstDay} to {initial.lastDay}.
        </p>
        <a href={exportHref(inspection, timeZone !== null)} className={buttonClass("primary", "mt-2")}>
          Download CSV<span className="sr-only">: controlled-substance transfers received in the last 2 years</span>
        </a>
      </section>

      <form
        aria-labelledby="custom-heading"
        className="space-y-3 rounded border border-slate-200 bg-white p-3"
        onSubmit={(e) => {
          // Enter in a field downloads, as the link does.
          e.preventDefault();
          if (!problem) window.location.assign(exportHref(filters, timeZone !== null));
        }}
        noValidate
      >
        <h2 id="custom-heading" className="font-semibold">
          Choose the period and the transfers
        </h2>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Field label="First day" hint="Decisions from midnight at the start of this day.">
            {(f) => (
              <input
                {...f}
                type="date"
                value={filters.firstDay}
                max={filters.lastDay || undefined}
                onChange={(e) => set("firstDay", e.target.value)}
              />
            )}
          </Field>
          <Field label="Last day (included)" hint="Decisions up to midnight at the end of this day.">
            {(f) => (
              <input
                {...f}
                type="date"
                value={filters.lastDay}
                min={filters.firstDay || undefined}
                onChange={(e) => set("lastDay", e.target.value)}
              />
            )}
          </Field>
          <Field label="Schedule" hint="The drug's schedule as recorded at the decision.">
            {(f) => (
              <select
                {...f}
                value={filters.schedule}
                onChange={(e) => set("schedule", e.target.value as TransferLogFilters["schedule"])}
              >
                {LOG_SCHEDULE_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Outcome">
            {(f) => (
              <select
                {...f}
                value={filters.outcome}
                onChange={(e) => set("outcome", e.target.value as TransferLogFilters["outcome"])}
              >
                {OUTCOME_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <p className="text-xs text-slate-600">
          Days run from midnight to midnight {timeZone ? `in your time zone (${timeZone})` : "UTC"}. Columns are the
          record&apos;s elements by name (referenceID, outcome, transferDateTime, …), oldest decision first.
        </p>
        {problem && (
          <p role="alert" className="rounded border border-red-300 bg-red-50 px-2 py-1 text-red-900">
            {problem}
          </p>
        )}
        <TransferLogTable params={periodParams(filters, timeZone !== null)} valid={!problem} />
        <button type="submit" disabled={problem !== null} className={buttonClass("primary")}>
          Download CSV<span className="sr-only">: the decided transfers of this period</span>
        </button>
      </form>
    </div>
  );
}
