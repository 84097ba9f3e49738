import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/require-user";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { sessionIdleMs } from "@/lib/auth/session-claims";
import { env } from "@/lib/env";
import { formatDuration } from "@/components/dashboard/format";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };

function noticeFor(reason: string | undefined): string | null {
  switch (reason) {
    case "idle":
      return `You were signed out after ${formatDuration(sessionIdleMs())} without activity, to protect patient data. Sign in to continue.`;
    case "expired":
      return `Your session reached its maximum length (${env().SESSION_MAX_HOURS} hours). Sign in again.`;
    case "revoked":
      return "Your session is no longer valid: it was signed out, ended by an admin, or your account was changed. Sign in again.";
    case "signed_out":
      return "You have signed out.";
    default:
      return null;
  }
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const one = (key: string) => (typeof params[key] === "string" ? params[key] : undefined);
  const callbackUrl = safeCallbackPath(one("callbackUrl"));
  if (await currentUser()) redirect(callbackUrl);

  // next-auth's own endpoint (a form posted without JavaScript) reports a refusal in the URL.
  const code = one("code");
  const locked = code && /^locked-\d+$/.test(code) ? new Date(Number(code.slice(7)) * 1000).toISOString() : null;
  let notice = noticeFor(one("reason"));
  if (one("error") === "CredentialsSignin" && !locked) notice = "Email or password is incorrect.";

  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-md border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-lg font-semibold">Sign in</h1>
        <p className="mb-4 text-slate-600">{env().PHARMACY_NAME} · prescription transfers</p>
        <LoginForm callbackUrl={callbackUrl} notice={notice} urlRetryAt={locked} />
        <p className="mt-4 text-xs text-slate-500">
          Sending pharmacies: see the <Link className="underline" href="/docs">API documentation</Link>.
        </p>
      </div>
    </main>
  );
}
