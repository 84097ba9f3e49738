import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requireSessionAllowingSecondFactor, secondFactorPage } from "@/lib/auth/require-user";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { sessionIdleMs } from "@/lib/auth/session-claims";
import { oidcIssuerAvailable } from "@/lib/auth/sso/probe-oidc-issuer";
import { oidcSettings } from "@/lib/auth/sso/oidc-settings";
import { env } from "@/lib/env";
import { formatDuration } from "@/components/dashboard/format";
import { LoginForm } from "./login-form";
import { SSO_ONLY_MESSAGE, ssoErrorMessage, ssoRefusalMessage } from "./sso-messages";
import { SsoSignIn } from "./sso-sign-in";

export const metadata: Metadata = { title: "Sign in" };

/** "15 minutes", "1 minute"; a limit that is not whole minutes (a test's) as formatDuration says it. */
function idleLimitInWords(ms: number): string {
  const minutes = ms / 60_000;
  if (Number.isInteger(minutes) && minutes >= 1) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return formatDuration(ms);
}

function noticeFor(reason: string | undefined): string | null {
  switch (reason) {
    case "idle":
      return `You were signed out after ${idleLimitInWords(sessionIdleMs())} without activity, to protect patient data. Sign in to continue where you were.`;
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

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const one = (key: string) => (typeof params[key] === "string" ? params[key] : undefined);
  const callbackUrl = safeCallbackPath(one("callbackUrl"));
  // Signed in already: on to the page asked for, or to the second step a half-done sign-in still owes.
  const session = await requireSessionAllowingSecondFactor();
  if (session) redirect(session.secondFactor ? secondFactorPage(session.secondFactor, callbackUrl) : callbackUrl);

  // next-auth's own endpoint (a form posted without JavaScript) reports a refusal in the URL.
  const code = one("code");
  const locked = code && /^locked-\d+$/.test(code) ? new Date(Number(code.slice(7)) * 1000).toISOString() : null;
  let notice = noticeFor(one("reason"));
  if (one("error") === "CredentialsSignin" && !locked) notice = "Email or password is incorrect.";

  const sso = oidcSettings();
  // SSO_ONLY: the password form is for break-glass admins only (the server refuses everyone else anyway).
  const ssoOnly = env().SSO_ONLY && sso !== null;
  const breakGlass = one("break_glass") === "1";
  const showPassword = !ssoOnly || breakGlass;
  const ssoAvailable = sso ? await oidcIssuerAvailable() : false;
  const ssoName = sso?.name ?? "single sign-on";
  if (code === "sso-only") notice = SSO_ONLY_MESSAGE(ssoName);
  const ssoProblem = sso ? (ssoRefusalMessage(one("sso"), ssoName) ?? ssoErrorMessage(one("error"), ssoName)) : null;

  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-md border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-lg font-semibold">Sign in</h1>
        <p className="mb-4 text-slate-600">{env().PHARMACY_NAME} · prescription transfers</p>
        {ssoProblem && (
          <p role="alert" className="mb-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
            {ssoProblem}
          </p>
        )}
        {sso && <SsoSignIn name={sso.name} available={ssoAvailable} callbackUrl={callbackUrl} />}
        {sso && showPassword && (
          <p className="my-4 flex items-center gap-2 text-sm text-slate-600" aria-hidden="true">
            <span className="h-px flex-1 bg-slate-200" /> or with your password{" "}
            <span className="h-px flex-1 bg-slate-200" />
          </p>
        )}
        {showPassword ? (
          <LoginForm callbackUrl={callbackUrl} notice={notice} urlRetryAt={locked} />
        ) : (
          <>
            {notice && (
              <p role="status" className="mt-3 rounded border border-sky-300 bg-sky-50 px-3 py-2 text-sky-900">
                {notice}
              </p>
            )}
            <p className="mt-4 text-sm">
              <Link className="underline" href={`/login?${new URLSearchParams({ break_glass: "1", callbackUrl })}`}>
                Break-glass admin sign-in with a password
              </Link>
            </p>
          </>
        )}
        <p className="mt-4 text-xs text-slate-500">
          Sending pharmacies: see the{" "}
          <Link className="underline" href="/docs">
            API documentation
          </Link>
          .
        </p>
      </div>
    </main>
  );
}
