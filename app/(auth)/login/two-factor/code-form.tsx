"use client";
import { useActionState } from "react";
import { verifyCodeAction, type CodeState } from "./actions";

export function CodeForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action, pending] = useActionState<CodeState, FormData>(verifyCodeAction, {});
  const retry = state.retryAt
    ? new Date(state.retryAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" })
    : null;
  return (
    <form action={action} className="space-y-3" noValidate>
      {state.error && (
        <p role="alert" id="code-error" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          {state.error}
          {retry && <> Try again at {retry}.</>}
        </p>
      )}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <div>
        <label htmlFor="code" className="block font-medium">
          Code
        </label>
        <input
          id="code"
          name="code"
          type="text"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          required
          autoFocus
          maxLength={64}
          aria-describedby={state.error ? "code-error code-hint" : "code-hint"}
          aria-invalid={state.error ? true : undefined}
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5 font-mono tracking-wider focus:border-blue-600"
        />
        <p id="code-hint" className="mt-1 text-sm text-slate-600">
          6 digits, or a recovery code such as ABCD-EFGH-JKMN-PQRS.
        </p>
      </div>
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded border border-slate-800 bg-slate-800 px-3 py-1.5 font-medium text-white hover:bg-slate-700 disabled:opacity-60"
      >
        {pending ? "Checking…" : "Verify"}
      </button>
      <p className="text-sm">
        <button
          type="button"
          className="underline"
          onClick={() =>
            void fetch("/api/session/logout", { method: "POST", credentials: "same-origin", body: "{}" }).finally(() =>
              window.location.assign(new URL("/login?reason=signed_out", window.location.origin).toString()),
            )
          }
        >
          Cancel and sign out
        </button>
      </p>
    </form>
  );
}
