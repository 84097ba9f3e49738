"use client";
// The overview page: refreshed like the queue (every REFRESH_MS, keeping the figures shown while it reads),
// each chart in a fixed-height box with its summary and table (chart-figure.tsx). Colours are dark enough
// against white (≥ 4.5:1) and every pair of series differs in form as well: bars against a dashed line,
// solid against outlined bars, a solid against a dashed line.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  XAxis,
  YAxis,
} from "recharts";
import { apiFetch } from "@/components/dashboard/api-client";
import { ChartFigure } from "@/components/overview/chart-figure";
import { percent, SENDER_CUTOFF_RATE } from "@/lib/partners/failure-rate";
import type { Overview } from "@/lib/overview/overview-views";

const REFRESH_MS = 60_000;
const BLUE = "#1e40af";
const ORANGE = "#9a3412";
const SLATE = "#334155";
const RED = "#991b1b";
const AXIS = { fontSize: 11, fill: SLATE };
// Legend text in one dark colour: Recharts colours it like its series otherwise (white for an outlined bar).
const LEGEND = {
  wrapperStyle: { fontSize: 12 },
  formatter: (value: string) => <span style={{ color: SLATE }}>{value}</span>,
};

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const hh = (h: number) => `${String(h).padStart(2, "0")}:00`;
const minutes = (m: number | null) =>
  m === null ? "–" : m < 120 ? `${Math.round(m)} min` : `${(m / 60).toFixed(1)} h`;

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
      <Immediate o={o} />
      {o.partners && <Partners o={o} partners={o.partners} />}
    </div>
  );
}

function Immediate({ o }: { o: Overview }) {
  const i = o.immediateConfirmation;
  const figures = [
    { label: "Confirmed at once today", value: i.confirmedToday },
    { label: "Waiting for a countersign", value: i.waitingForCountersign },
    { label: "Of those, past the verification limit", value: i.overdue },
  ];
  return (
    <section aria-labelledby="immediate-title" className="rounded border border-slate-200 bg-white p-3">
      <h2 id="immediate-title" className="font-semibold">
        Immediate confirmation
      </h2>
      <p className="text-sm text-slate-700">
        {i.enabled
          ? "Transfers a store's policy confirmed at intake, and those no pharmacist has received and verified yet."
          : "No store confirms transfers at intake now; those confirmed earlier and not yet verified are counted here."}
      </p>
      <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        {figures.map((f) => (
          <div key={f.label} className="flex items-baseline gap-2">
            <dt className="text-slate-700">{f.label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-1 text-sm">
        <Link href="/transfers/to-verify" prefetch={false} className="text-blue-800 underline">
          Transfers to verify
        </Link>
      </p>
    </section>
  );
}

function TodayArrivals({ o }: { o: Overview }) {
  const rows = o.today.arrivals;
  const today = sum(rows.map((r) => r.today));
  const usualSoFar = sum(rows.filter((r) => r.hour <= o.today.hour).map((r) => r.usual));
  return (
    <ChartFigure
      id="arrivals"
      title="Arrivals today by hour"
      summary={`${today} transfers arrived today; on this weekday the last 4 weeks, ${Math.round(usualSoFar)} had usually arrived by this hour (${Math.round(sum(rows.map((r) => r.usual)))} over the whole day).`}
      table={{ columns: ["Hour", "Today", "Usual"], rows: rows.map((r) => [hh(r.hour), r.today, r.usual]) }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rows} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -20 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="hour" tick={AXIS} interval={3} tickFormatter={hh} />
          <YAxis tick={AXIS} allowDecimals={false} />
          <Bar dataKey="today" name="Today (bars)" fill={BLUE} isAnimationActive={false} />
          <Line
            dataKey="usual"
            name="Usual (dashed)"
            stroke={SLATE}
            strokeDasharray="4 3"
            dot={false}
            isAnimationActive={false}
          />
          <Legend {...LEGEND} />
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

function PendingByAge({ o }: { o: Overview }) {
  const rows = o.today.pendingByAge.map((b) => ({
    ...b,
    label: b.band === "4h+" ? "past 4 h" : b.band.replace("h", " h"),
  }));
  const total = sum(rows.map((r) => r.count));
  const lapsed = rows.find((r) => r.band === "4h+")!.count;
  return (
    <ChartFigure
      id="pending"
      title="Pending now by age"
      summary={`${total} pending; ${o.today.lapsingWithinHour} pass the sender's 4-hour window within the next hour, ${lapsed} already have.`}
      table={{ columns: ["Age", "Pending"], rows: rows.map((r) => [r.label, r.count]) }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -20 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={AXIS} />
          <YAxis tick={AXIS} allowDecimals={false} />
          <Bar
            dataKey="count"
            name="Pending"
            fill={BLUE}
            isAnimationActive={false}
            label={{ position: "top", fontSize: 11, fill: SLATE }}
          />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

function DecisionsByHour({ o }: { o: Overview }) {
  const rows = o.today.decisions;
  const approved = sum(rows.map((r) => r.approved));
  const rejected = sum(rows.map((r) => r.rejected));
  return (
    <ChartFigure
      id="decisions"
      title="Decisions today by hour"
      summary={`${approved} approved and ${rejected} rejected today.`}
      table={{ columns: ["Hour", "Approved", "Rejected"], rows: rows.map((r) => [hh(r.hour), r.approved, r.rejected]) }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -20 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="hour" tick={AXIS} interval={3} tickFormatter={hh} />
          <YAxis tick={AXIS} allowDecimals={false} />
          <Bar dataKey="approved" name="Approved (solid)" stackId="d" fill={BLUE} isAnimationActive={false} />
          <Bar
            dataKey="rejected"
            name="Rejected (outlined)"
            stackId="d"
            fill="#ffffff"
            stroke={ORANGE}
            strokeWidth={1.5}
            isAnimationActive={false}
          />
          <Legend {...LEGEND} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

function TimeToDecision({ o }: { o: Overview }) {
  const rows = o.last30Days.days.map((d) => ({ ...d, day: d.date.slice(5) }));
  const over = rows.filter((d) => d.p90Minutes !== null && d.p90Minutes > 240).length;
  const last = [...rows].reverse().find((d) => d.medianMinutes !== null);
  return (
    <ChartFigure
      id="time-to-decision"
      title="Arrival to decision, last 30 days"
      summary={`${last ? `Latest day with decisions (${last.date}): median ${minutes(last.medianMinutes)}, 90th percentile ${minutes(last.p90Minutes)}. ` : "No decisions in the last 30 days. "}${over} of 30 days had a 90th percentile past the 4-hour window.`}
      table={{
        columns: ["Day", "Decided", "Median", "90th percentile"],
        rows: rows.map((d) => [d.date, d.decided, minutes(d.medianMinutes), minutes(d.p90Minutes)]),
      }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={rows} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -20 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="day" tick={AXIS} interval={6} />
          <YAxis tick={AXIS} unit="m" />
          <ReferenceLine
            y={240}
            stroke={RED}
            label={{ value: "4 h", position: "insideTopRight", fontSize: 11, fill: RED }}
          />
          <Line
            dataKey="medianMinutes"
            name="Median (solid)"
            stroke={BLUE}
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
          <Line
            dataKey="p90Minutes"
            name="90th percentile (dashed)"
            stroke={ORANGE}
            strokeDasharray="5 3"
            dot={false}
            connectNulls
            isAnimationActive={false}
          />
          <Legend {...LEGEND} />
        </LineChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

function Outcomes({ o }: { o: Overview }) {
  const rows = o.last30Days.outcomes.map((x) => ({
    label: x.decision === "APPROVED" ? "Approved" : `Rejected: ${x.errorType ?? "no type"}`,
    count: x.count,
  }));
  const approved = sum(o.last30Days.outcomes.filter((x) => x.decision === "APPROVED").map((x) => x.count));
  const rejected = sum(o.last30Days.outcomes.filter((x) => x.decision === "REJECTED").map((x) => x.count));
  const top = rows.find((r) => r.label !== "Approved");
  return (
    <ChartFigure
      id="outcomes"
      title="Approvals and rejections, last 30 days"
      summary={`${approved} approved, ${rejected} rejected${top ? `; the most common rejection: ${top.label.replace("Rejected: ", "")} (${top.count})` : ""}.`}
      table={{ columns: ["Outcome", "Transfers"], rows: rows.map((r) => [r.label, r.count]) }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={rows.slice(0, 6)}
          layout="vertical"
          accessibilityLayer={false}
          margin={{ top: 4, right: 24, bottom: 0, left: 0 }}
        >
          <XAxis type="number" tick={AXIS} allowDecimals={false} />
          <YAxis type="category" dataKey="label" tick={AXIS} width={120} />
          <Bar
            dataKey="count"
            name="Transfers"
            fill={BLUE}
            isAnimationActive={false}
            label={{ position: "right", fontSize: 11, fill: SLATE }}
          />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

function Missing({ o }: { o: Overview }) {
  const rows = o.last30Days.days.map((d) => ({ day: d.date.slice(5), date: d.date, missing: d.missing }));
  const total = sum(rows.map((r) => r.missing));
  return (
    <ChartFigure
      id="missing"
      title="Missing for the sender, last 30 days"
      summary={`${total} transfers were not answered within the sender's 4-hour window (no decision, or its callback not delivered, by then).`}
      table={{ columns: ["Day received", "Missing"], rows: rows.map((r) => [r.date, r.missing]) }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -20 }}>
          <CartesianGrid stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="day" tick={AXIS} interval={6} />
          <YAxis tick={AXIS} allowDecimals={false} />
          <Bar dataKey="missing" name="Missing" fill={ORANGE} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

function Partners({ o, partners }: { o: Overview; partners: NonNullable<Overview["partners"]> }) {
  const rows = partners.map((p) => ({
    name: p.name,
    rate: p.failureRate === null ? 0 : Math.round(p.failureRate * 1000) / 10,
  }));
  const over = partners.filter((p) => p.failureRate !== null && p.failureRate > SENDER_CUTOFF_RATE);
  return (
    <div className="grid gap-3 lg:grid-cols-2">
      <ChartFigure
        id="failure-rate"
        title="Partners' failure rate, last hour"
        summary={`${over.length} of ${partners.length} partners above the sender's ${percent(SENDER_CUTOFF_RATE)} line${over.length ? `: ${over.map((p) => p.name).join(", ")}` : ""}.`}
        table={{
          columns: ["Partner", "Answers", "Failure rate"],
          rows: partners.map((p) => [p.name, p.answersLastHour, percent(p.failureRate)]),
        }}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            data={rows}
            layout="vertical"
            accessibilityLayer={false}
            margin={{ top: 4, right: 24, bottom: 0, left: 0 }}
          >
            <XAxis type="number" domain={[0, 100]} unit="%" tick={AXIS} />
            <YAxis type="category" dataKey="name" tick={AXIS} width={120} />
            <ReferenceLine
              x={SENDER_CUTOFF_RATE * 100}
              stroke={RED}
              strokeDasharray="4 2"
              label={{ value: "cut-off", position: "top", fontSize: 11, fill: RED }}
            />
            <Bar dataKey="rate" name="Failure rate" fill={BLUE} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartFigure>
      <section aria-labelledby="callbacks-title" className="min-w-0 rounded border border-slate-200 bg-white p-3">
        <h2 id="callbacks-title" className="font-semibold">
          Callbacks per partner, last 30 days
        </h2>
        <div className="mt-2 overflow-x-auto">
          <table className="w-full border-collapse text-left text-sm">
            <thead>
              <tr>
                {[
                  "Partner",
                  "Delivered",
                  "Retrying",
                  "Waiting",
                  "Failed",
                  "Refused",
                  "Delay (median / p90)",
                  `Failure rate, last hour (cut-off ${percent(SENDER_CUTOFF_RATE)})`,
                ].map((c) => (
                  <th key={c} scope="col" className="border-b border-slate-300 px-1 py-0.5 font-medium">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {partners.map((p) => (
                <tr key={p.partnerId}>
                  <th scope="row" className="border-b border-slate-100 px-1 py-0.5 font-normal">
                    <Link href={`/admin/partners/${p.partnerId}`} prefetch={false} className="text-blue-800 underline">
                      {p.name}
                    </Link>
                  </th>
                  {[p.delivered, p.retrying, p.pending, p.failed, p.refused].map((n, i) => (
                    <td key={i} className="border-b border-slate-100 px-1 py-0.5 tabular-nums">
                      {n}
                    </td>
                  ))}
                  <td className="border-b border-slate-100 px-1 py-0.5 tabular-nums">
                    {minutes(p.medianDelayMinutes)} / {minutes(p.p90DelayMinutes)}
                  </td>
                  <td className="border-b border-slate-100 px-1 py-0.5 tabular-nums">
                    {percent(p.failureRate)}
                    {p.failureRate !== null && p.failureRate > p.failureCutoff && (
                      <span className="ml-1 font-medium text-red-800">over the cut-off</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="mt-1 text-xs text-slate-700">As of {new Date(o.generatedAt).toLocaleTimeString()}.</p>
      </section>
    </div>
  );
}
