"use client";
// What an error boundary shows (app/error.tsx, app/(dashboard)/error.tsx, app/global-error.tsx). A server
// error reaches the browser as a generic Error with a digest, never its message: the digest is what
// support matches against the server's log.
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { DeadEnd, QUEUE_AND_SIGN_IN } from "@/components/errors/dead-end";

function digestOf(error: unknown): string | null {
  if (!(error instanceof Error) || !("digest" in error)) return null;
  return typeof error.digest === "string" ? error.digest : null;
}

export function ErrorNotice({ error, retry, standalone }: { error: unknown; retry: () => void; standalone: boolean }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = digestOf(error);
  return (
    <DeadEnd
      title="Something went wrong"
      standalone={standalone}
      ways={QUEUE_AND_SIGN_IN}
      actions={
        <Button variant="primary" onClick={retry}>
          Try again
        </Button>
      }
    >
      <p>This page could not be shown because of a problem on our side, not because of anything you did.</p>
      <p>
        Try again in a moment. If it keeps happening, tell your administrator
        {digest ? (
          <>
            {" "}
            and quote the reference <code className="rounded bg-slate-100 px-1 font-mono text-xs">{digest}</code>
          </>
        ) : null}
        .
      </p>
    </DeadEnd>
  );
}
