// The dashboard's frame: header (pharmacy, navigation, who is signed in, sign out), TanStack Query, and
// the automatic logoff. Each page checks its own access as well (layouts and pages render in parallel).
import Link from "next/link";
import { AlertBanner } from "@/components/dashboard/alerts/alert-banner";
import { IdleLogoff } from "@/components/dashboard/idle-logoff";
import { QueryProvider } from "@/components/dashboard/query-provider";
import { SignOutAllButton } from "@/components/dashboard/sign-out-all-button";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { ToVerifyNavLink } from "@/components/dashboard/immediate/to-verify-nav-link";
import { getAlertSummary } from "@/lib/alerts/get-alert-summary";
import { currentUser } from "@/lib/auth/require-user";
import { sessionIdleMs } from "@/lib/auth/session-claims";
import { env } from "@/lib/env";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  // The alert banner's first summary beside the session check (reading only: a failure shows no banner).
  const [user, alerts] = await Promise.all([currentUser(), getAlertSummary().catch(() => null)]);
  // No user: the page itself redirects to the sign-in page (it knows where to come back to, and why).
  if (!user) return <main id="main">{children}</main>;
  return (
    <QueryProvider>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-2 focus:py-1"
      >
        Skip to content
      </a>
      <header className="bg-slate-800 text-slate-100 print:hidden">
        {/* Wraps rather than overflows: at 320 px (or 400 % zoom) the sign-out buttons stay on screen, on the dark background. */}
        <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-1.5">
          <Link href="/transfers" prefetch={false} className="font-semibold text-white">
            Rx Transfer
          </Link>
          <span className="hidden text-slate-300 md:inline">{env().PHARMACY_NAME}</span>
          <nav aria-label="Dashboard" className="flex flex-wrap gap-1">
            <Link href="/transfers" prefetch={false} className="rounded px-2 py-1 hover:bg-slate-700">
              Queue
            </Link>
            <Link href="/overview" prefetch={false} className="rounded px-2 py-1 hover:bg-slate-700">
              Overview
            </Link>
            <Link href="/transfers/log" prefetch={false} className="rounded px-2 py-1 hover:bg-slate-700">
              Transfer log
            </Link>
            <ToVerifyNavLink />
            <Link href="/docs" prefetch={false} className="rounded px-2 py-1 hover:bg-slate-700">
              API docs
            </Link>
            <Link href="/security" prefetch={false} className="rounded px-2 py-1 hover:bg-slate-700">
              Security
            </Link>
            {user.role === "admin" && (
              <Link href="/admin" prefetch={false} className="rounded px-2 py-1 hover:bg-slate-700">
                Admin
              </Link>
            )}
          </nav>
          <div className="ml-auto flex flex-wrap items-center gap-2">
            <span className="min-w-0 break-words">
              <span className="sr-only">Signed in as </span>
              {user.name} <span className="text-slate-400">({user.role})</span>
            </span>
            <SignOutButton />
            <SignOutAllButton />
          </div>
        </div>
      </header>
      <AlertBanner userId={user.id} pollMs={env().ALERT_POLL_SECONDS * 1000} initial={alerts} />
      <main id="main" className="mx-auto max-w-screen-2xl px-4 py-3">
        {children}
      </main>
      <IdleLogoff idleMs={sessionIdleMs()} />
    </QueryProvider>
  );
}
