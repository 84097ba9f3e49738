import type { Metadata } from "next";
import { AlertNotificationSetting } from "@/components/dashboard/alerts/alert-banner";
import { redirect } from "next/navigation";
import { loginUrl, requireSessionAllowingSecondFactor, secondFactorPage } from "@/lib/auth/require-user";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { twoFactorStatus } from "@/lib/auth/two-factor/enrol-two-factor";
import { isTwoFactorRequired } from "@/lib/auth/two-factor/policy";
import { OwnTwoFactor } from "./own-two-factor";
import { TwoFactorEnrolment } from "./two-factor-enrolment";

export const metadata: Metadata = { title: "Security" };

export default async function SecurityPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(typeof params.callbackUrl === "string" ? params.callbackUrl : undefined);
  const session = await requireSessionAllowingSecondFactor();
  if (!session) redirect(loginUrl("/security"));
  if (session.secondFactor === "verify") redirect(secondFactorPage("verify", "/security"));
  const status = await twoFactorStatus(session.user.id);
  const mustEnrol = session.secondFactor === "enrol";
  return (
    <div className={mustEnrol ? "mx-auto max-w-xl px-4 py-6" : "max-w-xl space-y-3"}>
      <h1 className="text-lg font-semibold">Security</h1>
      <h2 className="mt-3 font-semibold">Two-factor sign-in</h2>
      {mustEnrol && (
        <p role="status" className="my-2 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          Your pharmacy requires two-factor sign-in for {session.user.role === "admin" ? "admins" : "everyone"}. Set it
          up to continue: nothing else opens until it is done.
        </p>
      )}
      {/* One client component in one place whatever the status: the action that turns two-factor on refreshes this
          page, and the recovery codes it shows (held in that component's state, shown only once) must survive it. */}
      <TwoFactorEnrolment continueTo={mustEnrol ? callbackUrl : null} enabled={status.enabled}>
        {status.enabled ? (
          <>
            <p>
              Two-factor sign-in is <strong>on</strong> since {status.enabledAt?.toISOString().slice(0, 10)}. Recovery
              codes left: {status.recoveryCodesLeft}. Lost your phone? An admin can reset it.
            </p>
            <OwnTwoFactor mayDisable={!isTwoFactorRequired(session.user.role)} />
          </>
        ) : (
          <p className="my-2 text-slate-700">
            After your password you will also enter a 6-digit code from an authenticator app on your phone (Google
            Authenticator, Microsoft Authenticator, 1Password, …).
            {!mustEnrol && isTwoFactorRequired(session.user.role) ? " Your role requires it." : ""}
          </p>
        )}
      </TwoFactorEnrolment>
      {!mustEnrol && (
        <>
          <h2 className="mt-3 font-semibold">Alerts</h2>
          <p className="text-slate-700">
            A notification from this browser when transfers start waiting past an alert threshold (off by default).
          </p>
          <AlertNotificationSetting userId={session.user.id} />
        </>
      )}
    </div>
  );
}
