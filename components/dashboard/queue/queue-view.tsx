"use client";
// The review queue. TanStack Query refreshes the current page every few seconds, so a transfer that
// arrives appears without a reload (and is announced); pages are keyset cursors from the server; filters
// and search live in the URL so a view can be shared or bookmarked. Keyboard: j/k or arrows move, Enter
// opens, / searches, n/p page, ? lists the shortcuts.
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { apiFetch, ApiError } from "@/components/dashboard/api-client";
import { ageInYears, ageLevel, formatDuration, sortName, type AgeLevel } from "@/components/dashboard/format";
import { ShortcutsBar } from "@/components/dashboard/shortcuts-help";
import { useShortcuts } from "@/components/dashboard/use-shortcuts";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import type { QueueItem, QueuePage } from "@/lib/transfers/list-queue";

export type QueueInitialState = {
  status: string;
  sender: string;
  from: string;
  to: string;
  flags: string[];
  schedule: string;
  q: string;
  sort: string;
};

type Filters = QueueInitialState;

export const REFRESH_MS = 5_000;

const TABS = [
  { status: "RECEIVED", label: "Pending" },
  { status: "CONFIRMED", label: "Approved" },
  { status: "REJECTED", label: "Rejected" },
  { status: "all", label: "All" },
] as const;

const FLAG_OPTIONS = [
  { value: "allergies", label: "Allergies" },
  { value: "allergies-unknown", label: "Allergy info not available" },
  { value: "controlled", label: "Controlled substance" },
  { value: "warnings", label: "Check warnings" },
] as const;

const SCHEDULE_OPTIONS = [
  { value: "", label: "Any drug" },
  { value: "any", label: "Any controlled (C-II–C-V)" },
  { value: "II", label: "C-II" },
  { value: "III", label: "C-III" },
  { value: "IV", label: "C-IV" },
  { value: "V", label: "C-V" },
  { value: "unknown", label: "Not in the drug tables" },
] as const;

const CLEARED = { sender: "", from: "", to: "", flags: [], schedule: "", q: "" } satisfies Partial<Filters>;

const AGE_STYLES: Record<AgeLevel, string> = {
  fresh: "border-slate-200 bg-white text-slate-700",
  waiting: "border-sky-200 bg-sky-50 text-sky-900",
  late: "border-amber-300 bg-amber-50 text-amber-900",
  urgent: "border-orange-400 bg-orange-100 text-orange-950 font-semibold",
  overdue: "border-red-700 bg-red-700 text-white font-semibold",
};

function apiParams(f: Filters, cursor: string | undefined): URLSearchParams {
  const p = new URLSearchParams();
  p.set("status", f.status);
  if (f.sender) p.set("sender", f.sender);
  // Dates are the reader's calendar days: from the start of `from` to the end of `to`, local time.
  if (f.from) p.set("from", new Date(`${f.from}T00:00:00`).toISOString());
  if (f.to) {
    const end = new Date(`${f.to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    p.set("to", end.toISOString());
  }
  if (f.flags.length) p.set("flags", f.flags.join(","));
  if (f.schedule) p.set("schedule", f.schedule);
  if (f.q) p.set("q", f.q);
  p.set("sort", f.sort);
  if (cursor) p.set("cursor", cursor);
  return p;
}

function urlParams(f: Filters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.status !== "RECEIVED") p.set("status", f.status);
  if (f.sender) p.set("sender", f.sender);
  if (f.from) p.set("from", f.from);
  if (f.to) p.set("to", f.to);
  if (f.flags.length) p.set("flags", f.flags.join(","));
  if (f.schedule) p.set("schedule", f.schedule);
  if (f.q) p.set("q", f.q);
  if (f.sort !== "oldest") p.set("sort", f.sort);
  return p;
}

function countText(c: { count: number; capped: boolean } | undefined): string {
  if (!c) return "";
  return c.capped ? `${c.count.toLocaleString()}+` : c.count.toLocaleString();
}

export function QueueView({
  initial,
  senders,
  user,
  denied,
  windowMs,
}: {
  initial: QueueInitialState;
  senders: { partnerId: string; name: string }[];
  user: { id: string; name: string; role: string };
  denied: string | null;
  windowMs: number;
}) {
  const router = useRouter();
  const [filters, setFilters] = useState<Filters>(initial);
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState(initial.q);
  const [cursors, setCursors] = useState<string[]>([]);
  const [selectedRaw, setSelected] = useState(0);
  // The selected row is only marked once the pharmacist moves in the table (j / k, a click): marked from the
  // start, the first row looked selected already and the first j seemed to do nothing.
  const [navigating, setNavigating] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [announcement, setAnnouncement] = useState("");
  const searchRef = useRef<HTMLInputElement>(null);
  const tableRef = useRef<HTMLTableSectionElement>(null);
  const seen = useRef<Set<string> | null>(null);
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const lastPending = useRef<number | null>(null);

  const cursor = cursors[cursors.length - 1];
  const searching = filters.q !== "";
  // New arrivals: announced to screen readers, and marked "New" for a while.
  // Bumped whenever the filters change: an answer to a request made under other filters (a search still on
  // its way when it was cleared) says nothing about arrivals.
  const generation = useRef(0);
  const noticeArrivals = (next: QueuePage, askedIn: number) => {
    if (askedIn !== generation.current) return;
    const pending = next.counts.RECEIVED.count;
    if (lastPending.current !== null && pending > lastPending.current) {
      const n = pending - lastPending.current;
      setAnnouncement(`${n} new ${n === 1 ? "transfer" : "transfers"} arrived. ${pending} pending.`);
    }
    lastPending.current = pending;
    const ids = next.items.map((i) => i.referenceID);
    const known = seen.current;
    seen.current = new Set([...(known ?? []), ...ids]);
    const added = known ? ids.filter((id) => !known.has(id)) : [];
    if (added.length) {
      setFresh((prev) => new Set([...prev, ...added]));
      window.setTimeout(() => setFresh((prev) => new Set([...prev].filter((id) => !added.includes(id)))), 60_000);
    }
  };

  const query = useQuery({
    queryKey: ["queue", filters, cursor ?? null],
    queryFn: async ({ queryKey }) => {
      const askedIn = generation.current;
      // The first read of a page is the person's doing (opening the queue, a tab, a filter, a page): it is
      // audited and counts as activity. Re-reads of a page already shown (the timer) are background.
      const isRefresh = queryClient.getQueryData(queryKey) !== undefined;
      const next = await apiFetch<QueuePage>(`/api/transfers?${apiParams(filters, cursor)}`, { background: isRefresh });
      noticeArrivals(next, askedIn);
      return next;
    },
    // A search is recorded in the audit log each time it runs: it is not repeated on a timer.
    refetchInterval: searching ? false : REFRESH_MS,
    refetchOnWindowFocus: !searching,
    placeholderData: keepPreviousData,
  });
  const page = query.data;
  const items = useMemo(() => page?.items ?? [], [page]);
  const skew = page ? new Date(page.serverTime).getTime() - query.dataUpdatedAt : 0;
  const selected = Math.max(0, Math.min(selectedRaw, items.length - 1));

  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 15_000);
    return () => window.clearInterval(timer);
  }, []);

  useEffect(() => {
    window.history.replaceState(null, "", `/transfers${urlParams(filters).size ? `?${urlParams(filters)}` : ""}`);
  }, [filters]);

  const change = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setCursors([]);
    setSelected(0);
    seen.current = null;
    // Counts under other filters (a search, its clearing) are not arrivals: start counting afresh.
    lastPending.current = null;
    generation.current += 1;
  };

  const focusRow = (index: number) => {
    const clamped = Math.max(0, Math.min(index, items.length - 1));
    setNavigating(true);
    setSelected(clamped);
    tableRef.current?.querySelectorAll<HTMLAnchorElement>("a[data-row-link]")[clamped]?.focus();
  };
  const open = (item: QueueItem | undefined) => {
    if (item) router.push(`/transfers/${item.referenceID}`);
  };

  /** The first j / k only brings the focus to the table (on the selected row); then they move it. */
  const move = (step: number) => {
    const inTable = tableRef.current?.contains(document.activeElement) ?? false;
    focusRow(inTable ? selected + step : selected);
  };
  useShortcuts({
    j: () => move(1),
    ArrowDown: () => move(1),
    k: () => move(-1),
    ArrowUp: () => move(-1),
    Enter: (event) => {
      // A focused link or button handles Enter itself.
      if (event.target instanceof HTMLAnchorElement || event.target instanceof HTMLButtonElement) return false;
      open(items[selected]);
    },
    "/": () => searchRef.current?.focus(),
    n: () => {
      if (page?.nextCursor) setCursors((c) => [...c, page.nextCursor!]);
    },
    p: () => {
      if (cursors.length) setCursors((c) => c.slice(0, -1));
    },
  });

  const hasFilters = Boolean(filters.sender || filters.from || filters.to || filters.flags.length || filters.schedule || filters.q);
  const loadError = query.error instanceof ApiError ? query.error.message : query.error ? "The server could not be reached." : null;

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">Transfer queue</h1>
        <p className="text-xs text-slate-500" aria-live="off">
          {query.isFetching ? "Updating…" : page ? <>Updated <LocalTime iso={new Date(query.dataUpdatedAt).toISOString()} style="time" seconds /></> : null}
          {!searching && ` · refreshes every ${REFRESH_MS / 1000} s`}
        </p>
      </div>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {denied && (
        <p role="alert" className="mt-2 rounded border border-amber-300 bg-amber-50 px-3 py-1.5 text-amber-900">
          Your role ({user.role}) cannot open {denied}. You are back at the queue.
        </p>
      )}

      <div className="mt-2 flex flex-wrap items-center gap-1" role="group" aria-label="Status">
        {TABS.map((tab) => {
          const count = tab.status === "all" ? undefined : page?.counts[tab.status];
          const active = filters.status === tab.status;
          return (
            <button
              key={tab.status}
              type="button"
              aria-pressed={active}
              onClick={() => change({ status: tab.status })}
              className={`rounded border px-2.5 py-1 ${active ? "border-slate-800 bg-slate-800 text-white" : "border-slate-300 bg-white hover:bg-slate-100"}`}
            >
              {tab.label}
              {count && <span className={`ml-1.5 tabular-nums ${active ? "text-slate-200" : "text-slate-500"}`}>{countText(count)}</span>}
            </button>
          );
        })}
      </div>

      <form
        role="search"
        aria-label="Search and filter transfers"
        className="mt-2 flex flex-wrap items-end gap-x-3 gap-y-2 rounded border border-slate-200 bg-white p-2"
        onSubmit={(e) => {
          e.preventDefault();
          change({ q: searchText.trim() });
        }}
      >
        <div className="min-w-64 flex-1">
          <label htmlFor="queue-search" className="block text-xs font-medium text-slate-600">
            Search
          </label>
          <div className="flex gap-1">
            <input
              id="queue-search"
              ref={searchRef}
              type="search"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Escape") {
                  setSearchText("");
                  change({ q: "" });
                  (e.target as HTMLInputElement).blur();
                }
              }}
              placeholder="Name, drug, DOB, Rx or reference"
              aria-describedby="queue-search-help"
              className="w-full rounded border border-slate-300 px-2 py-1"
            />
            <Button type="submit">Search</Button>
          </div>
          <p id="queue-search-help" className="sr-only">
            Press Enter to search: a patient name in either order, a drug name, a date of birth as YYYY-MM-DD or MM/DD/YYYY, an Rx number or a reference ID. Escape clears.
          </p>
        </div>
        <div>
          <label htmlFor="queue-sender" className="block text-xs font-medium text-slate-600">
            Sender
          </label>
          <select id="queue-sender" value={filters.sender} onChange={(e) => change({ sender: e.target.value })} className="rounded border border-slate-300 px-1.5 py-1">
            <option value="">All senders</option>
            {senders.map((s) => (
              <option key={s.partnerId} value={s.partnerId}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="queue-from" className="block text-xs font-medium text-slate-600">
            Received from
          </label>
          <input id="queue-from" type="date" value={filters.from} onChange={(e) => change({ from: e.target.value })} className="rounded border border-slate-300 px-1.5 py-0.5" />
        </div>
        <div>
          <label htmlFor="queue-to" className="block text-xs font-medium text-slate-600">
            Received to
          </label>
          <input id="queue-to" type="date" value={filters.to} onChange={(e) => change({ to: e.target.value })} className="rounded border border-slate-300 px-1.5 py-0.5" />
        </div>
        <div>
          <label htmlFor="queue-schedule" className="block text-xs font-medium text-slate-600">
            Schedule
          </label>
          <select id="queue-schedule" value={filters.schedule} onChange={(e) => change({ schedule: e.target.value })} className="rounded border border-slate-300 px-1.5 py-1">
            {SCHEDULE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="flex flex-wrap items-center gap-x-3">
          <legend className="text-xs font-medium text-slate-600">Flags</legend>
          {FLAG_OPTIONS.map((flag) => (
            <label key={flag.value} className="inline-flex items-center gap-1">
              <input
                type="checkbox"
                checked={filters.flags.includes(flag.value)}
                onChange={(e) => change({ flags: e.target.checked ? [...filters.flags, flag.value] : filters.flags.filter((f) => f !== flag.value) })}
              />
              {flag.label}
            </label>
          ))}
        </fieldset>
        <div>
          <label htmlFor="queue-sort" className="block text-xs font-medium text-slate-600">
            Sort
          </label>
          <select id="queue-sort" value={filters.sort} onChange={(e) => change({ sort: e.target.value })} className="rounded border border-slate-300 px-1.5 py-1">
            <option value="oldest">Oldest first</option>
            <option value="newest">Newest first</option>
          </select>
        </div>
        {hasFilters && (
          <Button
            variant="ghost"
            onClick={() => {
              setSearchText("");
              change(CLEARED);
            }}
          >
            Clear filters
          </Button>
        )}
      </form>

      {loadError && (
        <div role="alert" className="mt-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          The queue could not be loaded: {loadError} It tries again on its own; check the network connection, or{" "}
          <button type="button" className="font-medium underline" onClick={() => void query.refetch()}>
            try now
          </button>
          .
        </div>
      )}

      <div className="mt-2 overflow-x-auto rounded border border-slate-200 bg-white">
        <table className="w-full border-collapse text-left">
          <caption className="sr-only">
            Transfers, {TABS.find((t) => t.status === filters.status)?.label.toLowerCase()}, {filters.sort === "oldest" ? "oldest first" : "newest first"}
          </caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-1.5">Age / status</th>
              <th scope="col" className="px-2 py-1.5">Patient</th>
              <th scope="col" className="px-2 py-1.5">DOB</th>
              <th scope="col" className="px-2 py-1.5">Drug</th>
              <th scope="col" className="px-2 py-1.5">Sender</th>
              <th scope="col" className="px-2 py-1.5">Received</th>
              <th scope="col" className="px-2 py-1.5">Flags</th>
              <th scope="col" className="px-2 py-1.5">Reviewer</th>
            </tr>
          </thead>
          <tbody ref={tableRef}>
            {items.map((item, index) => (
              <QueueRow
                key={item.referenceID}
                item={item}
                selected={navigating && index === selected}
                isNew={fresh.has(item.referenceID)}
                now={now + skew}
                windowMs={windowMs}
                userId={user.id}
                onSelect={() => {
                  setNavigating(true);
                  setSelected(index);
                }}
                onOpen={() => open(item)}
              />
            ))}
          </tbody>
        </table>
        {page && items.length === 0 && (
          <div className="px-3 py-6 text-center text-slate-600" role="status">
            {hasFilters ? (
              <>
                No transfers match these filters.{" "}
                <button
                  type="button"
                  className="font-medium text-slate-900 underline"
                  onClick={() => {
                    setSearchText("");
                    change(CLEARED);
                  }}
                >
                  Clear the filters
                </button>{" "}
                to see the whole queue.
              </>
            ) : filters.status === "RECEIVED" ? (
              <>No transfers are waiting for review. New transfers appear here on their own within {REFRESH_MS / 1000} seconds.</>
            ) : (
              <>No transfers with this status yet.</>
            )}
          </div>
        )}
        {!page && !loadError && <div className="px-3 py-6 text-center text-slate-500">Loading the queue…</div>}
      </div>

      <nav aria-label="Pages" className="mt-2 flex items-center gap-2">
        <Button disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous page
        </Button>
        <span className="text-slate-600">Page {cursors.length + 1}</span>
        <Button disabled={!page?.nextCursor} onClick={() => page?.nextCursor && setCursors((c) => [...c, page.nextCursor!])}>
          Next page
        </Button>
        {searching && <span className="text-xs text-slate-500">Search results do not refresh on their own: search again to update them.</span>}
      </nav>

      <ShortcutsBar
        shortcuts={[
          { keys: ["j", "↓"], action: "Next transfer" },
          { keys: ["k", "↑"], action: "Previous transfer" },
          { keys: ["Enter"], action: "Open" },
          { keys: ["/"], action: "Search" },
          { keys: ["n"], action: "Next page" },
          { keys: ["p"], action: "Previous page" },
        ]}
      />
    </div>
  );
}

function QueueRow({
  item,
  selected,
  isNew,
  now,
  windowMs,
  userId,
  onSelect,
  onOpen,
}: {
  item: QueueItem;
  selected: boolean;
  isNew: boolean;
  now: number;
  windowMs: number;
  userId: string;
  onSelect: () => void;
  onOpen: () => void;
}) {
  const age = Math.max(0, now - new Date(item.receivedAt).getTime());
  const level = ageLevel(age, windowMs);
  const left = windowMs - age;
  const pending = item.status === "RECEIVED";
  const name = sortName(item.patient);
  return (
    <tr
      onClick={(e) => {
        onSelect();
        if (!(e.target instanceof HTMLAnchorElement)) onOpen();
      }}
      className={`cursor-pointer border-b border-slate-100 align-top hover:bg-slate-50 ${item.patientGroup ? "border-l-4 border-l-violet-500" : ""} ${selected ? "bg-blue-50 outline outline-2 -outline-offset-2 outline-blue-500" : ""}`}
    >
      <td className="px-2 py-1.5 whitespace-nowrap">
        {pending ? (
          <span className={`inline-block rounded border px-1.5 py-px tabular-nums ${AGE_STYLES[level]}`} title={`${formatDuration(age)} since it was received; the sender gives up after ${formatDuration(windowMs)}`}>
            {formatDuration(age)}
            <span className="sr-only">{left > 0 ? ` waiting, ${formatDuration(left)} left of the sender's window` : " waiting, past the sender's 4-hour window"}</span>
            {level === "overdue" && <span aria-hidden="true"> · overdue</span>}
          </span>
        ) : (
          <Badge tone={item.status === "CONFIRMED" ? "green" : "red"}>{item.status === "CONFIRMED" ? "Approved" : "Rejected"}</Badge>
        )}
        {isNew && (
          <span className="ml-1">
            <Badge tone="blue">New</Badge>
          </span>
        )}
      </td>
      <td className="px-2 py-1.5">
        <Link
          href={`/transfers/${item.referenceID}`}
          prefetch={false}
          data-row-link=""
          onFocus={onSelect}
          aria-describedby={item.patientGroup ? `group-${item.referenceID}` : undefined}
          className="font-medium text-slate-900 underline-offset-2 hover:underline"
        >
          {name}
        </Link>
        {/* Issue 17: consecutive pending transfers of one patient (lib/transfers/queue-patient-groups.ts); read out with the link. */}
        {item.patientGroup && (
          <div id={`group-${item.referenceID}`} className="mt-0.5">
            <Badge tone="violet">
              Same patient: {item.patientGroup.position} of {item.patientGroup.size}
            </Badge>
          </div>
        )}
        <div className="font-mono text-[11px] text-slate-600">{item.referenceID}</div>
      </td>
      <td className="px-2 py-1.5 whitespace-nowrap tabular-nums">
        {item.patient.dateOfBirth} <span className="text-slate-500">({ageInYears(item.patient.dateOfBirth, new Date(now))} y)</span>
      </td>
      <td className="px-2 py-1.5">
        {item.drug.name} <span className="text-slate-600">{item.drug.strength}</span>
      </td>
      <td className="px-2 py-1.5">
        {item.sender.name}
        <div className="text-[11px] text-slate-500">NPI {item.sender.npi}</div>
      </td>
      <td className="px-2 py-1.5 whitespace-nowrap tabular-nums">
        <LocalTime iso={item.receivedAt} />
        {item.arrivedAfterHours && <div className="text-[11px] text-slate-600">arrived after hours</div>}
      </td>
      <td className="px-2 py-1.5">
        <div className="flex flex-wrap gap-1">
          {item.flags.allergies.length > 0 && (
            <Badge tone="solidRed" title={item.flags.allergies.join(", ")}>
              Allergies ({item.flags.allergies.length})
            </Badge>
          )}
          {item.flags.allergiesDescriptor === "NOT_AVAILABLE" && <Badge tone="amber">Allergies unknown</Badge>}
          {item.flags.allergyAlert && (
            <Badge tone={item.flags.allergyAlert.severity === "danger" ? "solidRed" : "amber"} title={item.flags.allergyAlert.message}>
              {item.flags.allergyAlert.severity === "danger" ? "Allergy conflict" : "Allergy caution"}
            </Badge>
          )}
          {item.flags.schedule && (
            <Badge tone="violet" title={item.flags.schedule.substance ? `${item.flags.schedule.substance}: Schedule ${item.flags.schedule.label.slice(2)} controlled substance` : undefined}>
              {item.flags.schedule.label}
              {item.flags.schedule.substance && <span className="font-normal"> · {item.flags.schedule.substance}</span>}
            </Badge>
          )}
          {item.flags.scheduleUnknown && (
            <Badge tone="amber" title="Not found in the controlled-substance table: determine the schedule when reviewing">
              Schedule unknown
            </Badge>
          )}
          {item.flags.failures > 0 && <Badge tone="red">{item.flags.failures} failed</Badge>}
          {item.flags.warnings > 0 && <Badge tone="amber">{item.flags.warnings} {item.flags.warnings === 1 ? "warning" : "warnings"}</Badge>}
          {item.callbackStatus === "FAILED" || item.callbackStatus === "GONE" ? <Badge tone="red">Callback {item.callbackStatus.toLowerCase()}</Badge> : null}
        </div>
      </td>
      <td className="px-2 py-1.5 whitespace-nowrap">
        {item.claim ? (
          <span title={`Claimed until ${item.claim.claimExpiresAt}`}>{item.claim.heldById === userId ? "You" : item.claim.heldBy}</span>
        ) : pending ? (
          <span className="text-slate-400">—</span>
        ) : item.decidedAt ? (
          <span>
            {item.decidedBy ?? "—"}
            <span className="block text-xs text-slate-600">
              {item.status === "REJECTED" ? "rejected" : "approved"} <LocalTime iso={item.decidedAt} />
            </span>
          </span>
        ) : null}
      </td>
    </tr>
  );
}
