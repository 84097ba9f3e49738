// The review screen's building blocks: a titled section, its field grid, one labelled field, an address.
// Server components, as are the sections built from them.
import { addressLines, type Address } from "@/lib/interface";

export function Section({
  title,
  children,
  className = "",
  id,
}: {
  title: string;
  children: React.ReactNode;
  className?: string;
  id?: string;
}) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-heading`;
  return (
    <section aria-labelledby={headingId} className={`rounded border border-slate-200 bg-white ${className}`}>
      <h2
        id={headingId}
        className="border-b border-slate-200 bg-slate-50 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-slate-700"
      >
        {title}
      </h2>
      <div className="px-3 py-2">{children}</div>
    </section>
  );
}

export function Fields({ children, columns = 1 }: { children: React.ReactNode; columns?: 1 | 2 }) {
  return <dl className={`grid gap-x-4 gap-y-1 ${columns === 2 ? "sm:grid-cols-2" : ""}`}>{children}</dl>;
}

export function Field({ label, children, wide = false }: { label: string; children: React.ReactNode; wide?: boolean }) {
  const empty = children === null || children === undefined || children === "";
  return (
    <div className={`grid grid-cols-[9.5rem_1fr] gap-2 ${wide ? "sm:col-span-2" : ""}`}>
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words">{empty ? <span className="text-slate-600">not given</span> : children}</dd>
    </div>
  );
}

export function AddressBlock({ address }: { address: Address }) {
  return (
    <address className="not-italic">
      {addressLines(address).map((line) => (
        <div key={line}>{line}</div>
      ))}
    </address>
  );
}
