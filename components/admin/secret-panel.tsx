"use client";
// A secret shown once: right after it is created, with a Copy button and a warning that it will not be
// shown again (only its hash is stored). It lives in this component's state only: a reload or "Done"
// forgets it for good.
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";

export type ShownSecret = { label: string; value: string; isSecret?: boolean };

function SecretValue({ label, value }: ShownSecret) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setStatus("Copied");
    } catch {
      inputRef.current?.focus();
      inputRef.current?.select();
      setStatus("Could not copy automatically: the text is selected, press Ctrl+C (⌘C) to copy it");
    }
  };
  return (
    <div>
      <label htmlFor={id} className="block text-xs font-medium text-slate-700">
        {label}
      </label>
      <div className="mt-0.5 flex flex-wrap items-center gap-2">
        <input
          id={id}
          ref={inputRef}
          readOnly
          value={value}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs"
        />
        <Button onClick={() => void copy()}>
          Copy<span className="sr-only"> {label}</span>
        </Button>
        <span role="status" className="text-xs font-medium text-emerald-800">
          {status}
        </span>
      </div>
    </div>
  );
}

export function SecretPanel({
  title,
  secrets,
  children,
  onDone,
}: {
  title: string;
  secrets: ShownSecret[];
  children?: React.ReactNode;
  onDone: () => void;
}) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  const secretWord = secrets.filter((s) => s.isSecret !== false).length > 1 ? "these secrets" : "this secret";
  return (
    <section aria-labelledby={headingId} className="space-y-2 rounded border border-amber-400 bg-amber-50 p-3">
      <h2
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="text-base font-semibold text-amber-950 focus:outline-none"
      >
        {title}
      </h2>
      <p className="text-amber-950">
        <strong>Copy {secretWord} now: it will not be shown again.</strong> Only a hash is kept; if it is lost, create a
        new one and revoke the old one.
      </p>
      {secrets.map((s) => (
        <SecretValue key={s.label} {...s} />
      ))}
      {children}
      <div className="pt-1">
        <Button variant="primary" onClick={onDone}>
          Done, I have stored it
        </Button>
      </div>
    </section>
  );
}
