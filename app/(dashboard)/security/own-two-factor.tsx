"use client";
import { useRouter } from "next/navigation";
import { useActionState, useEffect, useId } from "react";
import { disableTwoFactorAction, regenerateRecoveryCodesAction, type OwnTwoFactorState } from "./actions";

function CodeField({ label, error }: { label: string; error?: string }) {
  const id = useId();
  return (
    <div>
      {error && (
        <p
          role="alert"
          id={`${id}-error`}
          className="mb-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900"
        >
          {error}
        </p>
      )}
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      <input
        id={id}
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        maxLength={64}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="mt-1 w-40 rounded border border-slate-300 px-2 py-1.5 font-mono tracking-wider focus:border-blue-600"
      />
    </div>
  );
}

/** With two-factor on: new recovery codes, and (when the policy allows) turning it off; each after a current code. */
export function OwnTwoFactor({ mayDisable }: { mayDisable: boolean }) {
  const router = useRouter();
  const [codes, regenerate, regenerating] = useActionState<OwnTwoFactorState, FormData>(
    regenerateRecoveryCodesAction,
    {},
  );
  const [off, disable, disabling] = useActionState<OwnTwoFactorState, FormData>(disableTwoFactorAction, {});
  useEffect(() => {
    if (off.done) router.refresh();
  }, [off.done, router]);
  return (
    <div className="space-y-5">
      <form action={regenerate} className="space-y-2" aria-labelledby="regenerate-heading">
        <h3 id="regenerate-heading" className="font-semibold">
          New recovery codes
        </h3>
        <p className="text-slate-700">Your current recovery codes stop working and ten new ones are shown once.</p>
        <CodeField label="Code from your app, to make new recovery codes" error={codes.error} />
        <button
          type="submit"
          disabled={regenerating}
          className="rounded border border-slate-800 bg-slate-800 px-3 py-1.5 font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        >
          Make new recovery codes
        </button>
        {codes.recoveryCodes && (
          <div role="status" className="rounded border border-emerald-300 bg-emerald-50 px-3 py-2 text-emerald-950">
            <p>New recovery codes: save them now, they are not shown again.</p>
            <ul aria-label="Recovery codes" className="mt-1 grid grid-cols-2 gap-1 font-mono">
              {codes.recoveryCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </div>
        )}
      </form>
      {mayDisable && (
        <form action={disable} className="space-y-2" aria-labelledby="disable-heading">
          <h3 id="disable-heading" className="font-semibold">
            Turn off two-factor sign-in
          </h3>
          <CodeField label="Code from your app, to turn off two-factor" error={off.error} />
          <button
            type="submit"
            disabled={disabling}
            className="rounded border border-red-800 bg-red-800 px-3 py-1.5 font-medium text-white hover:bg-red-700 disabled:opacity-60"
          >
            Turn off two-factor
          </button>
        </form>
      )}
    </div>
  );
}
