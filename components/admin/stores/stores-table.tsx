"use client";
// The stores table, sortable by name and NPI, with each store's drug rules, alert settings and removal.
import { SortHeader, useSort } from "@/components/admin/sortable";
import { formatOpeningHours } from "@/components/admin/stores/store-alert-dialog";
import type { StoreRow } from "@/components/admin/stores/store-row";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { TABLE_CLASS, TableHead, TD_CLASS, TR_CLASS } from "@/components/ui/table";

type StoreAddress = {
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  postalCode: string;
  countryCode: string;
};

const SORT_COLUMNS = { name: (s: StoreRow) => s.name.toLowerCase(), npi: (s: StoreRow) => s.npi };

function addressText(address: unknown): string | null {
  if (!address || typeof address !== "object") return null;
  const a = address as Partial<StoreAddress>;
  const cityLine = [a.city, [a.state, a.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [a.addressLine1, a.addressLine2, cityLine].filter(Boolean).join(", ") || null;
}

export type StoreRowActions = {
  rules: (s: StoreRow) => void;
  alerts: (s: StoreRow) => void;
  remove: (s: StoreRow) => void;
};

function StoreTableRow({ s, act }: { s: StoreRow; act: StoreRowActions }) {
  const none = (text: string, className = "text-slate-500") => <span className={className}>{text}</span>;
  return (
    <tr className={TR_CLASS}>
      <td className={TD_CLASS}>
        {s.name}{" "}
        {s.configured && <Badge title="Configured by the PHARMACY_NPI environment variable">PHARMACY_NPI</Badge>}
      </td>
      <td className={`${TD_CLASS} font-mono`}>{s.npi}</td>
      <td className={`${TD_CLASS} font-mono`}>{s.dea ?? none("none", "font-sans text-slate-500")}</td>
      <td className={TD_CLASS}>{addressText(s.address) ?? none("none")}</td>
      <td className={TD_CLASS}>
        {s.extraSchedules.length
          ? s.extraSchedules.map((e) => `${e.substance} C-${e.schedule}`).join(", ")
          : none("federal only")}
      </td>
      <td className={TD_CLASS}>{s.rxExpiryMonths} months</td>
      <td className={TD_CLASS}>
        at {s.alertThresholdsMinutes.join(", ")} min; {formatOpeningHours(s.openingHours)}
        {s.openingHours && ` (${s.timeZone})`}
      </td>
      <td className={`${TD_CLASS} whitespace-nowrap text-right`}>
        <Button className="mr-1" onClick={() => act.rules(s)}>
          Drug rules<span className="sr-only"> of {s.name}</span>
        </Button>
        <Button className="mr-1" onClick={() => act.alerts(s)}>
          Alerts<span className="sr-only"> of {s.name}</span>
        </Button>
        <a className="mr-1 text-blue-700 underline" href={`/admin/stores/${s.storeId}/immediate-confirm`}>
          Immediate confirmation<span className="sr-only"> of {s.name}</span>
        </a>
        {s.configured ? (
          <span className="text-xs text-slate-500">NPI set in the environment</span>
        ) : (
          <Button variant="danger" onClick={() => act.remove(s)}>
            Remove<span className="sr-only"> store {s.name}</span>
          </Button>
        )}
      </td>
    </tr>
  );
}

const PLAIN_COLUMNS = ["DEA", "Address", "State schedules", "Non-controlled Rx valid", "Alerts"];

export function StoresTable({ stores, act }: { stores: StoreRow[]; act: StoreRowActions }) {
  const { sorted, sort, toggle } = useSort(stores, SORT_COLUMNS, { key: "name", dir: "ascending" });
  return (
    <>
      <table className={TABLE_CLASS}>
        <caption className="sr-only">This pharmacy&apos;s stores</caption>
        <TableHead columns={PLAIN_COLUMNS} actions>
          <SortHeader label="Store" column="name" sort={sort} onSort={toggle} />
          <SortHeader label="NPI" column="npi" sort={sort} onSort={toggle} />
        </TableHead>
        <tbody>
          {sorted.map((s) => (
            <StoreTableRow key={s.storeId} s={s} act={act} />
          ))}
        </tbody>
      </table>
      {stores.length === 0 && <p className="px-3 py-6 text-center text-slate-600">No stores yet.</p>}
    </>
  );
}
