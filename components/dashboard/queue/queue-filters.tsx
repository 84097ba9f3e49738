"use client";
// The queue's search and filters: a search box applied on Enter (Escape clears it), sender, received
// dates, schedule, flags and sort, applied as they change. Every label and control is a Field.
import type { QueueFiltersState } from "@/components/dashboard/queue/queue-filters-state";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { ANY_CONTROLLED_OPTION, SCHEDULE_OPTIONS } from "@/lib/drugs/schedule-names";

const FLAG_OPTIONS = [
  { value: "allergies", label: "Allergies" },
  { value: "allergies-unknown", label: "Allergy info not available" },
  { value: "controlled", label: "Controlled substance" },
  { value: "warnings", label: "Check warnings" },
] as const;

const QUEUE_SCHEDULE_OPTIONS = [
  { value: "", label: "Any drug" },
  ANY_CONTROLLED_OPTION,
  ...SCHEDULE_OPTIONS,
  { value: "unknown", label: "Not in the drug tables" },
];

const SELECT_CLASS = "mt-0.5 rounded border border-slate-300 bg-white px-1.5 py-1";
const DATE_CLASS = "mt-0.5 rounded border border-slate-300 bg-white px-1.5 py-0.5";

type Part = { state: QueueFiltersState };

/** Applied on Enter, not as typed: each search is audited. Escape clears it. */
function SearchField({ state, searchRef }: Part & { searchRef: React.Ref<HTMLInputElement> }) {
  const { change, searchText, setSearchText } = state;
  return (
    <>
      <Field id="queue-search" label="Search" className="min-w-64 flex-1">
        {(f) => (
          <div className="flex gap-1">
            <input
              {...f}
              ref={searchRef}
              type="search"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Escape") {
                  setSearchText("");
                  change({ q: "" });
                  e.currentTarget.blur();
                }
              }}
              placeholder="Name, drug, DOB, Rx or reference"
              aria-describedby="queue-search-help"
              className="mt-0.5 w-full rounded border border-slate-300 bg-white px-2 py-1"
            />
            <Button type="submit">Search</Button>
          </div>
        )}
      </Field>
      <p id="queue-search-help" className="sr-only">
        Press Enter to search: a patient name in either order, a drug name, a date of birth as YYYY-MM-DD or MM/DD/YYYY,
        an Rx number or a reference ID. Escape clears.
      </p>
    </>
  );
}

function FlagsFieldset({ state: { filters, change } }: Part) {
  return (
    <fieldset className="flex flex-wrap items-center gap-x-3">
      <legend className="text-xs font-medium text-slate-700">Flags</legend>
      {FLAG_OPTIONS.map((flag) => (
        <label key={flag.value} className="inline-flex items-center gap-1">
          <input
            type="checkbox"
            checked={filters.flags.includes(flag.value)}
            onChange={(e) =>
              change({
                flags: e.target.checked
                  ? [...filters.flags, flag.value]
                  : filters.flags.filter((f) => f !== flag.value),
              })
            }
          />
          {flag.label}
        </label>
      ))}
    </fieldset>
  );
}

export function QueueFilters({
  state,
  senders,
  searchRef,
}: {
  state: QueueFiltersState;
  senders: { partnerId: string; name: string }[];
  /** The "/" shortcut focuses the search box. */
  searchRef: React.Ref<HTMLInputElement>;
}) {
  const { filters, change, searchText } = state;
  return (
    <form
      role="search"
      aria-label="Search and filter transfers"
      className="mt-2 flex flex-wrap items-end gap-x-3 gap-y-2 rounded border border-slate-200 bg-white p-2"
      onSubmit={(e) => {
        e.preventDefault();
        change({ q: searchText.trim() });
      }}
    >
      <SearchField state={state} searchRef={searchRef} />
      <Field label="Sender">
        {(f) => (
          <select
            {...f}
            value={filters.sender}
            onChange={(e) => change({ sender: e.target.value })}
            className={SELECT_CLASS}
          >
            <option value="">All senders</option>
            {senders.map((s) => (
              <option key={s.partnerId} value={s.partnerId}>
                {s.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Received from">
        {(f) => (
          <input
            {...f}
            type="date"
            value={filters.from}
            onChange={(e) => change({ from: e.target.value })}
            className={DATE_CLASS}
          />
        )}
      </Field>
      <Field label="Received to">
        {(f) => (
          <input
            {...f}
            type="date"
            value={filters.to}
            onChange={(e) => change({ to: e.target.value })}
            className={DATE_CLASS}
          />
        )}
      </Field>
      <Field label="Schedule">
        {(f) => (
          <select
            {...f}
            value={filters.schedule}
            onChange={(e) => change({ schedule: e.target.value })}
            className={SELECT_CLASS}
          >
            {QUEUE_SCHEDULE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <FlagsFieldset state={state} />
      <Field label="Sort">
        {(f) => (
          <select
            {...f}
            value={filters.sort}
            onChange={(e) => change({ sort: e.target.value })}
            className={SELECT_CLASS}
          >
            <option value="oldest">Oldest first</option>
            <option value="newest">Newest first</option>
          </select>
        )}
      </Field>
      {state.hasFilters && (
        <Button variant="ghost" onClick={state.clearFilters}>
          Clear filters
        </Button>
      )}
    </form>
  );
}
