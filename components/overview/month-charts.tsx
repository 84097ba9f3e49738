// The overview's "last 30 days" row: arrival to decision (median, 90th percentile, the 4-hour line), outcomes
// by error type, and the transfers the sender would have counted as missing.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  XAxis,
  YAxis,
} from "recharts";
import { ChartFigure } from "@/components/overview/chart-figure";
import {
  AXIS,
  BAR_LIST_MARGIN,
  BLUE,
  GRID,
  LEGEND,
  MARGIN,
  minutes,
  ORANGE,
  RED,
  SLATE,
  sum,
} from "@/components/overview/chart-style";
import type { Overview } from "@/lib/overview/overview-views";
import { ERROR_TYPES } from "@/lib/interface/client-safe";

export function TimeToDecision({ o }: { o: Overview }) {
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
        <LineChart data={rows} accessibilityLayer={false} margin={MARGIN}>
          <CartesianGrid stroke={GRID} vertical={false} />
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

const outcomeLabel = (errorType: string | null) => `Rejected: ${errorType ?? "no type"}`;

export function Outcomes({ o }: { o: Overview }) {
  const outcomes = o.last30Days.outcomes;
  const rows = outcomes.map((x) => ({
    label: x.decision === "APPROVED" ? "Approved" : outcomeLabel(x.errorType),
    count: x.count,
  }));
  const approved = sum(outcomes.filter((x) => x.decision === "APPROVED").map((x) => x.count));
  const rejected = sum(outcomes.filter((x) => x.decision === "REJECTED").map((x) => x.count));
  const top = rows.find((r) => r.label !== "Approved");
  // The table lists every outcome, none too: an error type first seen on a refresh fills its row rather than
  // adding one, so an open table keeps its height.
  const countOf = (label: string) => rows.find((r) => r.label === label)?.count ?? 0;
  const labels = ["Approved", ...ERROR_TYPES.map(outcomeLabel)];
  for (const r of rows) if (!labels.includes(r.label)) labels.push(r.label);
  return (
    <ChartFigure
      id="outcomes"
      title="Approvals and rejections, last 30 days"
      summary={`${approved} approved, ${rejected} rejected${top ? `; the most common rejection: ${top.label.replace("Rejected: ", "")} (${top.count})` : ""}.`}
      table={{ columns: ["Outcome", "Transfers"], rows: labels.map((label) => [label, countOf(label)]) }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows.slice(0, 6)} layout="vertical" accessibilityLayer={false} margin={BAR_LIST_MARGIN}>
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

export function Missing({ o }: { o: Overview }) {
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
        <BarChart data={rows} accessibilityLayer={false} margin={MARGIN}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="day" tick={AXIS} interval={6} />
          <YAxis tick={AXIS} allowDecimals={false} />
          <Bar dataKey="missing" name="Missing" fill={ORANGE} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
