// The charts' shared look and the formats their summaries and tables use. Colours are dark enough against white
// (≥ 4.5:1) and every pair of series differs in form as well: bars against a dashed line, solid against
// outlined bars, a solid against a dashed line.
export const BLUE = "#1e40af";
export const ORANGE = "#9a3412";
export const SLATE = "#334155";
export const RED = "#991b1b";
export const GRID = "#e2e8f0";
export const AXIS = { fontSize: 11, fill: SLATE };
/** Room for the axis labels, the same in every chart with a numeric y axis. */
export const MARGIN = { top: 4, right: 4, bottom: 0, left: -20 };
/** Horizontal bars: their names on the left, their values after the bar. */
export const BAR_LIST_MARGIN = { top: 4, right: 24, bottom: 0, left: 0 };
// Legend text in one dark colour: Recharts colours it like its series otherwise (white for an outlined bar).
export const LEGEND = {
  wrapperStyle: { fontSize: 12 },
  formatter: (value: string) => <span style={{ color: SLATE }}>{value}</span>,
};

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** An hour of the day as the tables and axes show it: "07:00". */
export const hh = (h: number) => `${String(h).padStart(2, "0")}:00`;
/** A duration in minutes as a pharmacist reads it: "42 min", "3.5 h"; "–" when there is none. */
export const minutes = (m: number | null) =>
  m === null ? "–" : m < 120 ? `${Math.round(m)} min` : `${(m / 60).toFixed(1)} h`;
