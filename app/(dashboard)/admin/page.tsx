// Admin overview: what needs attention, and how much there is of everything.
import type { Metadata } from "next";
import Link from "next/link";
import { plural } from "@/components/admin/format";
import { PartnersAtRisk } from "@/components/admin/partners-at-risk";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import { getAdminOverview } from "@/lib/admin/admin-overview";
import { requirePageUser } from "@/lib/auth/require-user";

export const metadata: Metadata = { title: "Administration" };

function Card({ title, href, children }: { title: string; href: string; children: React.ReactNode }) {
  const id = `card-${href.replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="rounded border border-slate-200 bg-white p-3">
      <h2 id={id} className="font-semibold">
        <Link href={href} prefetch={false} className="text-blue-800 underline-offset-2 hover:underline">
          {title}
        </Link>
      </h2>
      <div className="mt-1 space-y-0.5 text-slate-700">{children}</div>
    </section>
  );
}

export default async function AdminOverviewPage() {
  await requirePageUser("/admin");
  const o = await getAdminOverview();
  return (
    <div className="space-y-3">
      <h1 className="text-lg font-semibold">Administration</h1>
      <p className="text-slate-700">
        How the day is going, the last 30 days and each partner&apos;s callbacks and failure rate, in charts:{" "}
        <Link href="/overview" prefetch={false} className="font-medium text-blue-800 underline">
          the overview
        </Link>
        .
      </p>
      <PartnersAtRisk />
      {o.partners.flagged.length > 0 && (
        <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          <p className="font-medium">
            Callbacks are not getting through to{" "}
            {o.partners.flagged.length === 1 ? "a partner" : `${o.partners.flagged.length} partners`}:
          </p>
          <ul className="list-disc pl-5">
            {o.partners.flagged.map((f) => (
              <li key={f.partnerId}>
                <Link href={`/admin/partners/${f.partnerId}`} prefetch={false} className="font-medium underline">
                  {f.name}
                </Link>{" "}
                {f.state === "gone" ? "answered 410 Gone" : "keeps failing"}
                {f.since && (
                  <>
                    {" "}
                    since <LocalTime iso={f.since} />
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {o.alertEmails.failing > 0 && (
        <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          <p className="font-medium">
            Alert emails are not getting through: {plural(o.alertEmails.failing, "alert")} waiting to be retried.
          </p>
          {o.alertEmails.lastError && (
            <p>
              Last error
              {o.alertEmails.lastAttemptAt && (
                <>
                  {" "}
                  at <LocalTime iso={o.alertEmails.lastAttemptAt} />
                </>
              )}
              : {o.alertEmails.lastError}
            </p>
          )}
        </div>
      )}
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-4">
        <Card title="Partners" href="/admin/partners">
          <p>
            {plural(o.partners.total, "sending pharmacy", "sending pharmacies")}
            {o.partners.suspended > 0 && <> · {o.partners.suspended} suspended</>}
          </p>
          <p>{plural(o.transfersLast24h, "transfer")} received in the last 24 h</p>
          <p>
            {plural(o.apiKeys.active, "active API key")}
            {o.apiKeys.expiringWithin7d > 0 && (
              <>
                {" "}
                <Badge tone="amber">{o.apiKeys.expiringWithin7d} expiring within 7 days</Badge>
              </>
            )}
          </p>
        </Card>
        <Card title="Users" href="/admin/users">
          <p>
            {o.users.active} active ({o.users.admins} {o.users.admins === 1 ? "admin" : "admins"})
          </p>
          {o.users.disabled > 0 && <p>{o.users.disabled} disabled</p>}
          {o.users.locked > 0 && (
            <p>
              <Badge tone="amber">{o.users.locked} locked out after failed sign-ins</Badge>
            </p>
          )}
        </Card>
        <Card title="Stores" href="/admin/stores">
          <p>{plural(o.stores, "store")} that transfers may name as the receiving pharmacy:</p>
          <ul aria-label="Receiving stores" className="list-disc pl-5">
            {o.receivingStores.map((s) => (
              <li key={s.npi}>
                {s.name} (NPI {s.npi}){s.configured && " · PHARMACY_NPI"}
                {s.demo && (
                  <>
                    {" "}
                    <Badge tone="amber">demo pharmacy</Badge>
                  </>
                )}
              </li>
            ))}
            {o.stores > o.receivingStores.length && <li>and {o.stores - o.receivingStores.length} more</li>}
          </ul>
          <p>
            Alert emails:{" "}
            {o.alertEmails.configured
              ? `${o.alertEmails.sentLast24h.toLocaleString()} sent in the last 24 h`
              : "not configured (SMTP_URL, ALERT_EMAILS)"}
          </p>
        </Card>
        <Card title="Audit log" href="/admin/audit">
          {o.audit.lastId ? (
            <p>
              Latest record #{o.audit.lastId} at <LocalTime iso={o.audit.lastAt!} />
            </p>
          ) : (
            <p>No records yet.</p>
          )}
          <p>Filter, export as CSV, verify the hash chain.</p>
        </Card>
      </div>
    </div>
  );
}
