"use client";
// Enrolment in three steps on one page: start (a new secret), scan and confirm one code, then the ten
// recovery codes, shown this once. Focus moves to each step's heading so a screen reader follows.
import { useEffect, useRef, useState, useTransition, type ReactNode } from "react";
import type { EnrolmentStart } from "@/lib/auth/two-factor/enrol-two-factor";
import { confirmEnrolmentAction, startEnrolmentAction } from "./actions";

const BUTTON =
  "rounded border border-slate-800 bg-slate-800 px-3 py-1.5 font-medium text-white hover:bg-slate-700 disabled:opacity-60";

function useFocusOnChange<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [key]);
  return ref;
}

/** `children`: the page's words on the current status, shown above each step but the last. */
export function TwoFactorEnrolment({
  continueTo,
  enabled,
  children,
}: {
  continueTo: string | null;
  enabled: boolean;
  children: ReactNode;
}) {
  const [start, setStart] = useState<EnrolmentStart | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const step = codes ? "codes" : start ? "scan" : "start";
  const heading = useFocusOnChange<HTMLHeadingElement>(step);

  if (codes) {
    return (
      <section aria-labelledby="codes-heading" className="space-y-2">
        <h3 id="codes-heading" ref={heading} tabIndex={-1} className="font-semibold">
          Two-factor sign-in is on. Your recovery codes
        </h3>
        <p>
          Each code works once, in place of a code from your phone, if you lose it.{" "}
          <strong>They are shown only now:</strong> print them or keep them in your password manager.
        </p>
        <ul
          aria-label="Recovery codes"
          className="grid grid-cols-2 gap-1 rounded border border-slate-300 bg-slate-50 p-3 font-mono"
        >
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <a href={continueTo ?? "/transfers"} className={`${BUTTON} inline-block`}>
          I have saved my recovery codes, continue
        </a>
      </section>
    );
  }

  if (enabled) return <>{children}</>;

  if (start) {
    return (
      <section aria-labelledby="scan-heading" className="space-y-2">
        {children}
        <h3 id="scan-heading" ref={heading} tabIndex={-1} className="font-semibold">
          Scan this code with your authenticator app
        </h3>
        <div
          role="img"
          aria-label="QR code for your authenticator app (the same key is written below)"
          className="h-48 w-48"
          dangerouslySetInnerHTML={{ __html: start.qrSvg }}
        />
        <p>
          Or type this key into the app:{" "}
          <code data-testid="totp-secret" className="break-all rounded bg-slate-100 px-1 font-mono">
            {start.secret.match(/.{1,4}/g)?.join(" ")}
          </code>
        </p>
        <form
          className="space-y-2"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const code = new FormData(e.currentTarget).get("code");
            startTransition(async () => {
              const result = await confirmEnrolmentAction(code);
              if (result.ok) {
                setError(null);
                setCodes(result.recoveryCodes);
              } else setError(result.error);
            });
          }}
        >
          {error && (
            <p role="alert" id="enrol-error" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
              {error}
            </p>
          )}
          <label htmlFor="enrol-code" className="block font-medium">
            Code from the app
          </label>
          <input
            id="enrol-code"
            name="code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={16}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "enrol-error" : undefined}
            className="w-40 rounded border border-slate-300 px-2 py-1.5 font-mono tracking-widest focus:border-blue-600"
          />
          <div>
            <button type="submit" disabled={pending} className={BUTTON}>
              {pending ? "Checking…" : "Turn on two-factor"}
            </button>
          </div>
        </form>
      </section>
    );
  }

  return (
    <div className="space-y-2">
      {children}
      {error && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-red-900">
          {error}
        </p>
      )}
      <button
        type="button"
        disabled={pending}
        className={BUTTON}
        onClick={() =>
          startTransition(async () => {
            const result = await startEnrolmentAction();
            if (result.ok) {
              setError(null);
              setStart(result.start);
            } else setError(result.error);
          })
        }
      >
        {pending ? "Preparing…" : "Set up two-factor sign-in"}
      </button>
    </div>
  );
}
