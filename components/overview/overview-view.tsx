"use client";
// The overview page: refreshed like the queue (every REFRESH_MS, keeping the figures shown while it reads),
// each chart in a fixed-height box with its summary and table (chart-figure.tsx): today's row
// (today-charts.tsx), the last 30 days (month-charts.tsx), immediate confirmation, and the partners for admins
// (partner-health.tsx).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/dashboard/api-client";
import { ImmediateConfirmation } from "@/components/overview/immediate-confirmation";
import { Missing, Outcomes, TimeToDecision } from "@/components/overview/month-charts";
import { PartnerHealth } from "@/components/overview/partner-health";
import { DecisionsByHour, PendingByAge, TodayArrivals } from "@/components/overview/today-charts";
import type { Overview } from "@/lib/overview/overview-views";

const REFRESH_MS = 60_000;

export function OverviewView({ initial }: { initial: Overview }) {
  const { data, isFetching, error } = useQuery({
    queryKey: ["overview"],
    queryFn: () => apiFetch<Overview>("/api/overview", { background: true }),
    initialData: initial,
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const o = data ?? initial;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h1 className="text-lg font-semibold">Overview</h1>
        <p className="text-sm text-slate-700" aria-live="polite">
          {o.today.date} ({o.today.timeZone}) · figures of {new Date(o.generatedAt).toLocaleTimeString()}
          <span className="inline-block w-24">{isFetching ? " · updating…" : ""}</span>
        </p>
        {/* Its own line, always there: the notice coming or going moves nothing. */}
        <p className="min-h-[1.25rem] basis-full text-sm text-red-800" aria-live="polite">
          {error ? "Could not refresh; showing the last figures." : ""}
        </p>
      </div>
      <h2 className="sr-only">Today</h2>
      <div className="grid gap-3 lg:grid-cols-3">
        <TodayArrivals o={o} />
        <PendingByAge o={o} />
        <DecisionsByHour o={o} />
      </div>
      <div className="grid gap-3 lg:grid-cols-3">
        <TimeToDecision o={o} />
        <Outcomes o={o} />
        <Missing o={o} />
      </div>
      <ImmediateConfirmation o={o} />
      {o.partners && <PartnerHealth partners={o.partners} generatedAt={o.generatedAt} />}
    </div>
  );
}
