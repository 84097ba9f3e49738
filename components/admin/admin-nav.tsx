"use client";
// The admin area's own navigation; the current section is marked for assistive technology.
import Link from "next/link";
import { usePathname } from "next/navigation";

const SECTIONS = [
  { href: "/admin", label: "Overview" },
  { href: "/admin/partners", label: "Partners" },
  { href: "/admin/users", label: "Users" },
  { href: "/admin/stores", label: "Stores" },
  { href: "/admin/integration-keys", label: "Integration keys" },
  { href: "/admin/audit", label: "Audit log" },
] as const;

export function AdminNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Administration" className="mb-3 flex flex-wrap gap-1 border-b border-slate-200 pb-2">
      {SECTIONS.map((s) => {
        const current =
          s.href === "/admin" ? pathname === "/admin" : pathname === s.href || pathname.startsWith(`${s.href}/`);
        return (
          <Link
            key={s.href}
            href={s.href}
            prefetch={false}
            aria-current={current ? "page" : undefined}
            className={`rounded px-2.5 py-1 ${current ? "bg-slate-800 text-white" : "text-slate-700 hover:bg-slate-100"}`}
          >
            {s.label}
          </Link>
        );
      })}
    </nav>
  );
}
