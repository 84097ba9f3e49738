// One chart of the overview: the chart itself is a picture (role="img" with the summary as its name); the same
// figures are in the summary sentence and in a table under "Show the table" (WCAG 1.1.1). The chart box has a
// fixed height, so a refresh never moves the page.
import type { ReactNode } from "react";

export type FigureTable = { columns: string[]; rows: (string | number)[][] };

export function ChartFigure({
  id,
  title,
  summary,
  table,
  children,
}: {
  id: string;
  title: string;
  summary: string;
  table: FigureTable;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="min-w-0 rounded border border-slate-200 bg-white p-3">
      <h2 id={`${id}-title`} className="font-semibold">
        {title}
      </h2>
      {/* Room for four lines: a summary that grows by a line on refresh does not push its chart down. */}
      <p id={`${id}-summary`} className="mt-1 min-h-[5rem] text-sm text-slate-700">
        {summary}
      </p>
      <div role="img" aria-labelledby={`${id}-summary`} className="mt-2 h-52 w-full">
        {children}
      </div>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-blue-800 underline">Show the table</summary>
        <div className="mt-1 max-h-64 overflow-auto">
          <table className="w-full border-collapse text-left">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c} scope="col" className="border-b border-slate-300 px-1 py-0.5 font-medium">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) =>
                    j === 0 ? (
                      <th key={j} scope="row" className="border-b border-slate-100 px-1 py-0.5 font-normal">
                        {cell}
                      </th>
                    ) : (
                      <td key={j} className="border-b border-slate-100 px-1 py-0.5 tabular-nums">
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
