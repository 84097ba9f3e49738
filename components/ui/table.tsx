// The dashboard's table look, in one place: the queue, the audit log and the admin tables share it.
// Class strings rather than wrapper components, so each table keeps its own semantics (captions, scope,
// aria-sort, row roles) in plain JSX.
export const TABLE_CLASS = "w-full border-collapse text-left";
export const THEAD_CLASS = "border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600";
export const TH_CLASS = "px-2 py-1.5";
export const TD_CLASS = "px-2 py-1.5 align-top";
export const TR_CLASS = "border-b border-slate-100 last:border-b-0";
