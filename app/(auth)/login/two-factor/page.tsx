import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { loginUrl, requireSessionAllowingSecondFactor, secondFactorPage } from "@/lib/auth/require-user";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { CodeForm } from "./code-form";

export const metadata: Metadata = { title: "Two-factor sign-in" };

export default async function TwoFactorPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(typeof params.callbackUrl === "string" ? params.callbackUrl : undefined);
  const session = await requireSessionAllowingSecondFactor();
  if (!session) redirect(loginUrl(callbackUrl));
  if (!session.secondFactor) redirect(callbackUrl);
  if (session.secondFactor === "enrol") redirect(secondFactorPage("enrol", callbackUrl));
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-md border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-lg font-semibold">Two-factor sign-in</h1>
        <p className="mb-4 text-slate-600">
          Signed in as {session.user.email}. Enter the 6-digit code your authenticator app shows, or one of your
          recovery codes.
        </p>
        <CodeForm callbackUrl={callbackUrl} />
      </div>
    </main>
  );
}
