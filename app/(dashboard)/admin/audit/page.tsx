import type { Metadata } from "next";
import { AuditView, type AuditFilterState } from "@/components/admin/audit/audit-view";
import { listAuditActions } from "@/lib/audit/list-audit-actions";
import { requirePageUser } from "@/lib/auth/require-user";
import { listUsers } from "@/lib/users/list-users";

export const metadata: Metadata = { title: "Audit log" };

type Params = Record<string, string | string[] | undefined>;

export default async function AuditPage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (typeof v === "string") query.set(k, v);
  await requirePageUser(`/admin/audit${query.size ? `?${query}` : ""}`);
  const one = (key: string) => (typeof params[key] === "string" ? (params[key] as string) : "");
  const date = (key: string) => (/^\d{4}-\d{2}-\d{2}$/.test(one(key)) ? one(key) : "");
  const initial: AuditFilterState = {
    user: one("user"),
    action: one("action"),
    transfer: one("transfer"),
    from: date("from"),
    to: date("to"),
    order: one("order") === "oldest" ? "oldest" : "newest",
  };
  const [actions, users] = await Promise.all([listAuditActions(), listUsers()]);
  return <AuditView initial={initial} actions={actions} users={[...users.map((u) => u.email), "cli", "system"]} />;
}
