"use client";
import { useActionState } from "react";
import { ssoSignInAction, type SsoState } from "./sso-actions";

/** "Sign in with <name>"; while the provider does not answer, a disabled control that says why. */
export function SsoSignIn({ name, available, callbackUrl }: { name: string; available: boolean; callbackUrl: string }) {
  const [state, action, pending] = useActionState<SsoState, FormData>(ssoSignInAction, {});
  return (
    <form action={action} className="space-y-2">
      {state.error && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          {state.error}
        </p>
      )}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <button
        type="submit"
        disabled={!available || pending}
        aria-describedby={available ? undefined : "sso-unavailable"}
        className="w-full rounded border border-blue-800 bg-blue-800 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:border-slate-400 disabled:bg-slate-200 disabled:text-slate-700"
      >
        {pending ? "Redirecting…" : `Sign in with ${name}${available ? "" : " (unavailable)"}`}
      </button>
      {!available && (
        <p id="sso-unavailable" className="text-sm text-slate-700">
          {name} does not answer right now, so single sign-on is unavailable. Try again in a minute; password sign-in
          still works for those who have one.
        </p>
      )}
    </form>
  );
}
