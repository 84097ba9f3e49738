"use client";
// The review queue. The server renders the first page (app/(dashboard)/transfers/page.tsx hands it to the
// query cache); TanStack Query refreshes the current page every few seconds, so a transfer that arrives
// appears without a reload (and is announced); pages are keyset cursors from the server; filters and search
// live in the URL so a view can be shared or bookmarked. Keyboard: j/k or arrows move, Enter opens,
// / searches, n/p page, ? lists the shortcuts.
// The layout holds still while rows arrive and refresh: the pager sits above the table (a row that arrives
// never moves it under a click), the table's columns have fixed widths, and the status line keeps one line.
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { apiFetch, ApiError } from "@/components/dashboard/api-client";
import { QueueFilters } from "@/components/dashboard/queue/queue-filters";
import { queueApiParams, queueQueryKey, type QueueInitialState } from "@/components/dashboard/queue/queue-api-params";
import { useQueueFilters, type QueueFiltersState } from "@/components/dashboard/queue/queue-filters-state";
import { QueueStatusTabs } from "@/components/dashboard/queue/queue-status-tabs";
import { QueueTable } from "@/components/dashboard/queue/queue-table";
import { useQueueArrivals } from "@/components/dashboard/queue/use-queue-arrivals";
import { useQueueNavigation } from "@/components/dashboard/queue/use-queue-navigation";
import { ShortcutsBar } from "@/components/dashboard/shortcuts-help";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import type { QueuePage } from "@/lib/transfers/queue";

export type { QueueInitialState } from "@/components/dashboard/queue/queue-api-params";

export const REFRESH_MS = 5_000;

const SHORTCUTS = [
  { keys: ["j", "↓"], action: "Next transfer" },
  { keys: ["k", "↑"], action: "Previous transfer" },
  { keys: ["Enter"], action: "Open" },
  { keys: ["/"], action: "Search" },
  { keys: ["n"], action: "Next page" },
  { keys: ["p"], action: "Previous page" },
];

/**
 * The clock the ages are counted on, ticking every 15 s. It starts at the server's time of the first page,
 * so the server's HTML and the browser's first render agree (it is seconds old), then follows the browser's clock.
 */
function useNow(serverTime: string | null): number {
  const [now, setNow] = useState(() => (serverTime ? new Date(serverTime).getTime() : Date.now()));
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 15_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

function useQueuePage(filters: QueueInitialState, cursor: string | undefined) {
  const queryClient = useQueryClient();
  const searching = filters.q !== "";
  return useQuery({
    queryKey: queueQueryKey(filters, cursor),
    queryFn: ({ queryKey }) => {
      // The first read of a page is the person's doing (opening the queue, a tab, a filter, a page): it is
      // audited and counts as activity. Re-reads of a page already shown (the timer) are background.
      const isRefresh = queryClient.getQueryData(queryKey) !== undefined;
      return apiFetch<QueuePage>(`/api/transfers?${queueApiParams(filters, cursor)}`, { background: isRefresh });
    },
    // A search is recorded in the audit log each time it runs: it is not repeated on a timer.
    refetchInterval: searching ? false : REFRESH_MS,
    refetchOnWindowFocus: !searching,
    // The server's first page is fresh when the screen mounts: not read again at once.
    staleTime: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

function QueueHeader({
  fetching,
  updatedAt,
  searching,
}: {
  fetching: boolean;
  updatedAt: number | null;
  searching: boolean;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <h1 className="text-lg font-semibold">Transfer queue</h1>
      {/* One line whatever it says (it changes on every refresh), on its own line on a narrow screen. */}
      <p className="w-full truncate text-xs text-slate-500 sm:w-auto" aria-live="off">
        {fetching ? (
          "Updating…"
        ) : updatedAt !== null ? (
          <>
            Updated <LocalTime iso={new Date(updatedAt).toISOString()} style="time" seconds />
          </>
        ) : null}
        {!searching && ` · refreshes every ${REFRESH_MS / 1000} s`}
      </p>
    </div>
  );
}

function QueuePager({
  state,
  nextCursor,
  searching,
}: {
  state: QueueFiltersState;
  nextCursor: string | null | undefined;
  searching: boolean;
}) {
  return (
    <nav aria-label="Pages" className="mt-2 flex flex-wrap items-center gap-2">
      <Button disabled={state.pageNumber === 1} onClick={state.previousPage}>
        Previous page
      </Button>
      <span className="text-slate-600">Page {state.pageNumber}</span>
      <Button disabled={!nextCursor} onClick={() => state.nextPage(nextCursor)}>
        Next page
      </Button>
      {searching && (
        <span className="text-xs text-slate-500">
          Search results do not refresh on their own: search again to update them.
        </span>
      )}
    </nav>
  );
}

export function QueueView({
  initial,
  senders,
  user,
  denied,
  windowMs,
  serverTime,
}: {
  initial: QueueInitialState;
  senders: { partnerId: string; name: string }[];
  user: { id: string; name: string; role: string };
  denied: string | null;
  windowMs: number;
  /** When the server read the first page (null when it left it to the browser). */
  serverTime: string | null;
}) {
  const state = useQueueFilters(initial);
  const { filters } = state;
  const filterKey = JSON.stringify(filters);
  const searching = filters.q !== "";
  const query = useQueuePage(filters, state.cursor);
  const page = query.data;
  const items = useMemo(() => page?.items ?? [], [page]);
  const now = useNow(serverTime);
  const skew = page ? new Date(page.serverTime).getTime() - query.dataUpdatedAt : 0;
  const arrivals = useQueueArrivals({
    page,
    updatedAt: query.dataUpdatedAt,
    isPlaceholder: query.isPlaceholderData,
    filterKey,
  });
  const nav = useQueueNavigation({
    items,
    filterKey,
    onNextPage: () => state.nextPage(page?.nextCursor),
    onPreviousPage: state.previousPage,
  });
  const loadError =
    query.error instanceof ApiError ? query.error.message : query.error ? "The server could not be reached." : null;

  return (
    <div>
      <QueueHeader fetching={query.isFetching} updatedAt={page ? query.dataUpdatedAt : null} searching={searching} />
      <p className="sr-only" role="status" aria-live="polite">
        {arrivals.announcement}
      </p>
      {denied && (
        <p role="alert" className="mt-2 rounded border border-amber-300 bg-amber-50 px-3 py-1.5 text-amber-900">
          Your role ({user.role}) cannot open {denied}. You are back at the queue.
        </p>
      )}
      <QueueStatusTabs status={filters.status} counts={page?.counts} onChange={(status) => state.change({ status })} />
      <QueueFilters state={state} senders={senders} searchRef={nav.searchRef} />
      {loadError && (
        <div role="alert" className="mt-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          The queue could not be loaded: {loadError} It tries again on its own; check the network connection, or{" "}
          <button type="button" className="font-medium underline" onClick={() => void query.refetch()}>
            try now
          </button>
          .
        </div>
      )}
      <QueuePager state={state} nextCursor={page?.nextCursor} searching={searching} />
      <QueueTable
        items={items}
        loaded={Boolean(page)}
        failed={Boolean(loadError)}
        status={filters.status}
        sort={filters.sort}
        hasFilters={state.hasFilters}
        onClearFilters={state.clearFilters}
        refreshSeconds={REFRESH_MS / 1000}
        selected={nav.marked}
        isNew={arrivals.isNew}
        now={now + skew}
        windowMs={windowMs}
        userId={user.id}
        onSelect={nav.select}
        onOpen={nav.open}
        bodyRef={nav.bodyRef}
      />
      <ShortcutsBar shortcuts={SHORTCUTS} />
    </div>
  );
}
