// The overview's "Today" row: arrivals by hour against the usual curve, pending by age against the sender's
// 4-hour window, decisions by hour.
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { ChartFigure } from "@/components/overview/chart-figure";
import { AXIS, BLUE, GRID, hh, LEGEND, MARGIN, ORANGE, SLATE, sum } from "@/components/overview/chart-style";
import type { Overview } from "@/lib/overview/overview-views";

export function TodayArrivals({ o }: { o: Overview }) {
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
        <ComposedChart data={rows} accessibilityLayer={false} margin={MARGIN}>
          <CartesianGrid stroke={GRID} vertical={false} />
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

export function PendingByAge({ o }: { o: Overview }) {
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
        <BarChart data={rows} accessibilityLayer={false} margin={MARGIN}>
          <CartesianGrid stroke={GRID} vertical={false} />
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

export function DecisionsByHour({ o }: { o: Overview }) {
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
        <BarChart data={rows} accessibilityLayer={false} margin={MARGIN}>
          <CartesianGrid stroke={GRID} vertical={false} />
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
