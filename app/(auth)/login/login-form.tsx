"use client";
import { useActionState, useEffect, useState } from "react";
import { signInAction, type SignInState } from "./actions";

function RetryMessage({ retryAt }: { retryAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const at = new Date(retryAt);
  const seconds = Math.max(0, Math.ceil((at.getTime() - now) / 1000));
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  if (seconds === 0) return <> You can try again now.</>;
  const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return (
    <>
      {" "}
      Try again at {time} (in {wait}).
    </>
  );
}

export function LoginForm({
  callbackUrl,
  notice,
  urlRetryAt,
}: {
  callbackUrl: string;
  notice: string | null;
  urlRetryAt: string | null;
}) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, {});
  const retryAt = state.retryAt ?? (state.error ? undefined : (urlRetryAt ?? undefined));
  const error = state.error ?? (urlRetryAt ? "Too many failed sign-ins." : null);
  return (
    <form action={action} className="space-y-3" noValidate>
      {notice && !error && (
        <p role="status" className="rounded border border-sky-300 bg-sky-50 px-3 py-2 text-sky-900">
          {notice}
        </p>
      )}
      {error && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          {error}
          {retryAt && <RetryMessage retryAt={retryAt} />}
        </p>
      )}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <div>
        <label htmlFor="email" className="block font-medium">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          defaultValue={state.email}
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5 focus:border-blue-600"
        />
      </div>
      <div>
        <label htmlFor="password" className="block font-medium">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5 focus:border-blue-600"
        />
      </div>
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded border border-slate-800 bg-slate-800 px-3 py-1.5 font-medium text-white hover:bg-slate-700 disabled:opacity-60"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
