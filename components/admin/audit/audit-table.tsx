// One page of audit records: who did what, to which transfer, from where, and the record's hash.
import Link from "next/link";
import { LocalTime } from "@/components/ui/local-time";
import { TABLE_CLASS, TableHead, TD_CLASS, TR_CLASS } from "@/components/ui/table";
import type { AuditRow } from "@/lib/audit/audit-query";

const COLUMNS = ["#", "Time", "User", "Action", "Transfer", "Client address", "Details", "Hash"];

function detailsText(details: unknown): string {
  if (details === null || details === undefined) return "";
  if (typeof details !== "object") return String(details);
  return Object.entries(details as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" · ");
}

function AuditTableRow({ row }: { row: AuditRow }) {
  return (
    <tr className={TR_CLASS}>
      <td className={`${TD_CLASS} tabular-nums text-slate-500`}>{row.id}</td>
      <td className={`${TD_CLASS} whitespace-nowrap`}>
        <LocalTime iso={row.at} seconds />
      </td>
      <td className={TD_CLASS}>{row.actor}</td>
      <td className={`${TD_CLASS} font-mono text-xs`}>{row.action}</td>
      <td className={`${TD_CLASS} font-mono text-xs`}>
        {row.transferId ? (
          <Link
            href={`/transfers/${row.transferId}`}
            prefetch={false}
            className="text-blue-800 underline-offset-2 hover:underline"
          >
            {row.transferId}
          </Link>
        ) : null}
      </td>
      <td className={`${TD_CLASS} font-mono text-xs`}>{row.clientAddress}</td>
      <td className={`${TD_CLASS} max-w-md break-words text-xs text-slate-700`}>{detailsText(row.details)}</td>
      <td
        className={`${TD_CLASS} font-mono text-xs text-slate-500`}
        title={`hash ${row.hash}, previous ${row.prevHash}`}
      >
        {row.hash.slice(0, 10)}…
      </td>
    </tr>
  );
}

export function AuditTable({ rows, caption, busy }: { rows: AuditRow[] | undefined; caption: string; busy: boolean }) {
  return (
    <table className={TABLE_CLASS} aria-busy={busy}>
      <caption className="sr-only">{caption}</caption>
      <TableHead columns={COLUMNS} />
      <tbody>
        {rows?.map((row) => (
          <AuditTableRow key={row.id} row={row} />
        ))}
      </tbody>
    </table>
  );
}
