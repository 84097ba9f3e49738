"use client";
// The live part of the review screen's header: status, age against the sender's window, who holds the
// claim, and the decision. Opening the screen claims the transfer for a pharmacist (when nobody else
// holds it); the claim is renewed while the screen stays open and released when the pharmacist leaves.
// Keyboard: a approve, r reject, q back to the queue, p printable record (n and h: next-for-patient.tsx, patient-history.tsx).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { apiFetch, ApiError } from "@/components/dashboard/api-client";
import { ageLevel, formatDuration } from "@/components/dashboard/format";
import { FhirDownload } from "@/components/dashboard/review/fhir-download";
import {
  ApproveDialog,
  RejectDialog,
  type ApprovalContext,
  type RejectPrefill,
  type TransferSummary,
} from "@/components/dashboard/review/decision-dialogs";
import { ShortcutsBar } from "@/components/dashboard/shortcuts-help";
import { useShortcuts } from "@/components/dashboard/use-shortcuts";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClass } from "@/components/ui/button";
import { LocalTime, formatLocal } from "@/components/ui/local-time";
import type { ClaimState } from "@/lib/transfers/claim-transfer";
import type { DecisionResult } from "@/lib/transfers/decide-transfer";
import { ERROR_TYPE_LABELS, type ApproveInput, type RejectInput } from "@/lib/transfers/decision-inputs";
import type { TransferActivity } from "@/lib/transfers/get-transfer-activity";

export const ACTIVITY_REFRESH_MS = 5_000;

export function transferQueryKey(referenceID: string) {
  return ["transfer", referenceID] as const;
}

export function useTransferActivity(referenceID: string, initial: TransferActivity) {
  return useQuery({
    queryKey: transferQueryKey(referenceID),
    queryFn: () =>
      apiFetch<TransferActivity>(`/api/transfers/${encodeURIComponent(referenceID)}/status`, { background: true }),
    initialData: initial,
    refetchInterval: ACTIVITY_REFRESH_MS,
  });
}

/** A 409 from the API names who decided or who holds the claim: say it in words, in local time. */
function conflictMessage(error: unknown): string {
  if (error instanceof ApiError && error.problem) {
    const p = error.problem as {
      reason?: string;
      decision?: string;
      decidedBy?: string;
      decidedAt?: string;
      heldBy?: string;
      claimExpiresAt?: string;
      detail: string;
    };
    if (p.reason === "already_decided" && p.decidedBy && p.decidedAt) {
      return `This transfer was already ${p.decision === "APPROVED" ? "approved" : "rejected"} by ${p.decidedBy} at ${formatLocal(p.decidedAt)}. Your decision was not recorded.`;
    }
    if (p.reason === "claimed_by_other" && p.heldBy && p.claimExpiresAt) {
      return `${p.heldBy} is reviewing this transfer (claim until ${formatLocal(p.claimExpiresAt, "time")}). Your decision was not recorded.`;
    }
    return p.detail;
  }
  return error instanceof Error ? error.message : "Something went wrong.";
}

export function ReviewActions({
  referenceID,
  initial,
  user,
  summary,
  approval,
  windowMs,
  claimMs,
  blocked,
}: {
  referenceID: string;
  initial: TransferActivity;
  user: { id: string; name: string; role: string };
  summary: TransferSummary;
  /** The request and its store's rules, for the approve dialog; null when the stored request is unreadable. */
  approval: ApprovalContext | null;
  windowMs: number;
  claimMs: number;
  /** Why approval is refused today (drug-review.ts), in words; empty when it is not. */
  blocked: string[];
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const activity = useTransferActivity(referenceID, initial).data;
  const [dialog, setDialog] = useState<"approve" | "reject" | null>(null);
  const [rejectPrefill, setRejectPrefill] = useState<RejectPrefill | null>(null);
  const [notice, setNotice] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const isPharmacist = user.role === "pharmacist";
  const pending = activity.status === "RECEIVED";
  const claim = activity.claim;
  const mine = claim?.heldById === user.id;
  const heldByOther = Boolean(claim && !mine);
  const canDecide = isPharmacist && pending && !heldByOther;
  const holdsClaim = useRef(false);

  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 15_000);
    return () => window.clearInterval(timer);
  }, []);

  const refresh = () => queryClient.invalidateQueries({ queryKey: transferQueryKey(referenceID) });

  const claimMutation = useMutation({
    mutationFn: (background: boolean) =>
      apiFetch<ClaimState>(`/api/transfers/${encodeURIComponent(referenceID)}/claim`, { method: "POST", background }),
    onSuccess: () => {
      holdsClaim.current = true;
      void refresh();
    },
    onError: (error) => {
      holdsClaim.current = false;
      if (error instanceof ApiError && error.status === 409) void refresh();
    },
  });
  const { mutate: claimNow } = claimMutation;

  // Claim on opening (a pharmacist, a pending transfer nobody else holds); renew while open; release on leaving.
  const claimable = isPharmacist && pending && !heldByOther;
  useEffect(() => {
    if (!claimable) return;
    if (!holdsClaim.current) claimNow(true);
    const timer = window.setInterval(() => claimNow(true), Math.max(5_000, Math.floor(claimMs / 3)));
    return () => window.clearInterval(timer);
  }, [claimable, claimMs, claimNow]);
  useEffect(() => {
    const release = () => {
      if (!holdsClaim.current) return;
      holdsClaim.current = false;
      void apiFetch(`/api/transfers/${encodeURIComponent(referenceID)}/claim`, {
        method: "DELETE",
        background: true,
        keepalive: true,
      }).catch(() => {});
    };
    window.addEventListener("pagehide", release);
    return () => {
      window.removeEventListener("pagehide", release);
      release();
    };
  }, [referenceID]);

  const decide = useMutation({
    mutationFn: (input: { kind: "approve"; body: ApproveInput } | { kind: "reject"; body: RejectInput }) =>
      apiFetch<DecisionResult>(`/api/transfers/${encodeURIComponent(referenceID)}/${input.kind}`, {
        method: "POST",
        body: input.body,
      }),
    onSuccess: (result) => {
      holdsClaim.current = false;
      setDialog(null);
      setNotice({
        tone: "ok",
        text:
          result.decision === "APPROVED"
            ? "Approved. CONFIRMED is on its way to the sender; the transfer record is ready to print."
            : "Rejected. ERROR is on its way to the sender.",
      });
      void refresh();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        setDialog(null);
        setNotice({ tone: "error", text: conflictMessage(error) });
        void refresh();
      }
    },
  });

  const openDialog = (kind: "approve" | "reject", prefill: RejectPrefill | null = null) => {
    if (!canDecide) return;
    decide.reset();
    setNotice(null);
    setRejectPrefill(prefill);
    setDialog(kind);
  };

  useShortcuts({
    a: () => openDialog("approve"),
    r: () => openDialog("reject"),
    q: () => router.push("/transfers"),
    p: () => {
      if (activity.decision?.decision === "APPROVED") router.push(`/transfers/${referenceID}/record`);
    },
  });

  const age = Math.max(0, now - new Date(activity.receivedAt).getTime());
  const level = ageLevel(age, windowMs);
  const dialogError =
    decide.error && !(decide.error instanceof ApiError && decide.error.status === 409)
      ? conflictMessage(decide.error)
      : null;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <span aria-label="Status">
          {pending ? (
            <Badge tone="blue">Pending review</Badge>
          ) : activity.decision?.decision === "APPROVED" ? (
            <Badge tone="green">Approved</Badge>
          ) : (
            <Badge tone="red">Rejected</Badge>
          )}
        </span>
        {pending && (
          <span
            className={`rounded border px-1.5 py-px text-xs tabular-nums ${
              level === "overdue"
                ? "border-red-700 bg-red-700 text-white"
                : level === "urgent"
                  ? "border-orange-400 bg-orange-100"
                  : level === "late"
                    ? "border-amber-300 bg-amber-50"
                    : "border-slate-300 bg-white"
            }`}
          >
            Waiting {formatDuration(age)} ·{" "}
            {age < windowMs
              ? `${formatDuration(windowMs - age)} left of the sender's 4-hour window`
              : "past the sender's 4-hour window"}
          </span>
        )}
        <span role="status" aria-live="polite" className="text-slate-700">
          {pending &&
            claim &&
            (mine ? (
              <>You are reviewing this transfer.</>
            ) : (
              <>
                Being reviewed by <strong>{claim.heldBy}</strong> (claim until{" "}
                <LocalTime iso={claim.claimExpiresAt} style="time" />
                ).
              </>
            ))}
          {pending && !claim && isPharmacist && "Not claimed."}
        </span>
      </div>

      {activity.decision && (
        <p className="rounded border border-slate-300 bg-white px-3 py-1.5">
          {activity.decision.decision === "APPROVED" ? (
            "Approved"
          ) : (
            <>
              Rejected ({ERROR_TYPE_LABELS[activity.decision.errorType as keyof typeof ERROR_TYPE_LABELS] ?? "error"}{" "}
              <code className="text-xs text-slate-600">{activity.decision.errorType ?? "ERROR"}</code>)
            </>
          )}{" "}
          by <strong>{activity.decision.pharmacistName}</strong> at <LocalTime iso={activity.decision.decidedAt} />.
          {activity.decision.description && (
            <span className="mt-1 block">
              Sent to the sender: <q className="font-medium">{activity.decision.description}</q>
            </span>
          )}
          {activity.decision.decision === "APPROVED" && (
            <>
              {" "}
              <Link
                href={`/transfers/${referenceID}/record`}
                prefetch={false}
                className="font-medium text-blue-700 underline"
              >
                Printable transfer record
              </Link>
              <FhirDownload referenceID={referenceID} />
            </>
          )}
        </p>
      )}

      {notice && (
        <p
          role={notice.tone === "error" ? "alert" : "status"}
          className={`rounded border px-3 py-1.5 ${notice.tone === "error" ? "border-red-300 bg-red-50 text-red-900" : "border-emerald-300 bg-emerald-50 text-emerald-900"}`}
        >
          {notice.text}
        </p>
      )}
      {claimMutation.error && !(claimMutation.error instanceof ApiError && claimMutation.error.status === 409) && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-1.5 text-amber-900">
          The claim could not be renewed: {conflictMessage(claimMutation.error)}
        </p>
      )}

      {pending && (
        <div className="flex flex-wrap items-center gap-2">
          {isPharmacist ? (
            <>
              <Button
                variant="approve"
                disabled={!canDecide}
                onClick={() => openDialog("approve")}
                aria-keyshortcuts="a"
              >
                Approve
              </Button>
              <Button variant="danger" disabled={!canDecide} onClick={() => openDialog("reject")} aria-keyshortcuts="r">
                Reject
              </Button>
              {mine && (
                <Button
                  variant="ghost"
                  onClick={async () => {
                    holdsClaim.current = false;
                    await apiFetch(`/api/transfers/${encodeURIComponent(referenceID)}/claim`, {
                      method: "DELETE",
                    }).catch(() => {});
                    router.push("/transfers");
                  }}
                >
                  Release and back to queue
                </Button>
              )}
              {heldByOther && (
                <span className="text-slate-600">
                  You can decide once {claim?.heldBy} releases it or the claim lapses.
                </span>
              )}
              {blocked.length > 0 && (
                <span className="font-medium text-red-700">Cannot be approved: {blocked.join("; ")}.</span>
              )}
            </>
          ) : (
            <p className="text-slate-600">Read-only: only pharmacists decide transfers.</p>
          )}
        </div>
      )}
      {!pending && (
        <Link href="/transfers" prefetch={false} className={buttonClass("secondary")}>
          Back to the queue
        </Link>
      )}

      {approval && dialog === "approve" && (
        <ApproveDialog
          open
          onClose={() => setDialog(null)}
          onConfirm={(body) => decide.mutate({ kind: "approve", body })}
          onRejectInstead={(prefill) => openDialog("reject", prefill)}
          pending={decide.isPending}
          error={dialogError}
          summary={summary}
          context={approval}
        />
      )}
      <RejectDialog
        key={rejectPrefill ? `prefill-${rejectPrefill.description}` : "blank"}
        prefill={rejectPrefill}
        open={dialog === "reject"}
        onClose={() => setDialog(null)}
        onConfirm={(body) => decide.mutate({ kind: "reject", body })}
        pending={decide.isPending}
        error={dialogError}
        summary={summary}
      />
      <ShortcutsBar
        shortcuts={[
          ...(isPharmacist && pending
            ? [
                { keys: ["a"], action: "Approve" },
                { keys: ["r"], action: "Reject" },
              ]
            : []),
          { keys: ["q"], action: "Back to the queue" },
          { keys: ["n"], action: "Next for this patient" },
          { keys: ["h"], action: "Patient history" },
          ...(activity.decision?.decision === "APPROVED" ? [{ keys: ["p"], action: "Printable record" }] : []),
        ]}
      />
    </div>
  );
}
