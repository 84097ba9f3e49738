// The dashboard's table look, in one place: the queue, the audit log and the admin tables share it.
// Class strings, plus the header row every table repeated; bodies stay plain JSX, so each table keeps its
// own semantics (captions, aria-sort, row roles).
// `relative`: the cells' screen-reader-only text (position: absolute) stays inside the table's scrolling region
// rather than widening the page at narrow widths.
export const TABLE_CLASS = "relative w-full border-collapse text-left";
export const THEAD_CLASS = "border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600";
export const TH_CLASS = "px-2 py-1.5";
export const TD_CLASS = "px-2 py-1.5 align-top";
export const TR_CLASS = "border-b border-slate-100 last:border-b-0";

/**
 * A table's header row: any sortable headers first (`children`, SortHeader cells), then plain column
 * headers, then an unnamed-on-screen "Actions" column for the rows' buttons.
 */
export function TableHead({
  columns = [],
  actions = false,
  children,
}: {
  columns?: readonly string[];
  actions?: boolean;
  children?: React.ReactNode;
}) {
  return (
    <thead className={THEAD_CLASS}>
      <tr>
        {children}
        {columns.map((c) => (
          <th key={c} scope="col" className={TH_CLASS}>
            {c}
          </th>
        ))}
        {actions && (
          <th scope="col" className={TH_CLASS}>
            <span className="sr-only">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
