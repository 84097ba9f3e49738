"use client";
// Sends a signed sample callback (metadata.test: true) to the saved URL and shows the attempt.
import { useState } from "react";
import { apiFetch } from "@/components/admin/api";
import { Button } from "@/components/ui/button";
import type { TestCallbackResult } from "@/lib/callbacks/send-test-callback";

function resultText(result: TestCallbackResult): string {
  if (result.ok)
    return `Test callback ${result.webhookId} acknowledged: HTTP ${result.statusCode} in ${result.latencyMs} ms from ${result.url}.`;
  const code = result.statusCode !== null ? `HTTP ${result.statusCode}` : "";
  const dash = result.statusCode !== null && result.error ? " – " : "";
  return `Test callback ${result.webhookId} to ${result.url} failed: ${code}${dash}${result.error ?? ""}.`;
}

export function TestCallback({ partnerId }: { partnerId: string }) {
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<TestCallbackResult | null>(null);
  const [failure, setFailure] = useState("");
  const send = async () => {
    setSending(true);
    setFailure("");
    setResult(null);
    try {
      setResult(
        await apiFetch<TestCallbackResult>(`/api/admin/partners/${partnerId}/test-callback`, { method: "POST" }),
      );
    } catch (err) {
      setFailure(err instanceof Error ? err.message : "The test callback could not be sent.");
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="mt-3 border-t border-slate-200 pt-2">
      <p className="text-xs text-slate-600">
        A signed sample CONFIRMED TransferResponse marked <code>metadata.test: true</code> (referenceID{" "}
        <code>trf_test</code>), sent once to the saved URL with the partner&apos;s signature and credential header, so
        the partner can check their receiver before the first real transfer. Recorded in the audit log.
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <Button onClick={() => void send()} disabled={sending}>
          {sending ? "Sending…" : "Send a test callback"}
        </Button>
        <span role="status" className={result && !result.ok ? "text-red-800" : "text-slate-800"}>
          {result && resultText(result)}
        </span>
        {failure && (
          <span role="alert" className="text-red-800">
            {failure}
          </span>
        )}
      </div>
    </div>
  );
}
