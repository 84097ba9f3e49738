"use client";
// The live part of the review screen's header: status, age against the sender's window, who holds the
// claim, and the decision. Opening the screen claims the transfer for a pharmacist (when nobody else
// holds it); the claim is renewed while the screen stays open and released when the pharmacist leaves.
// Keyboard: a approve, r reject, q back to the queue, p printable record (n and h: next-for-patient.tsx, patient-history.tsx).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch } from "@/components/dashboard/api-client";
import { ApproveDialog, type ApprovalContext } from "@/components/dashboard/review/approve-dialog";
import { conflictMessage, isConflict } from "@/components/dashboard/review/conflict-message";
import type { TransferSummary } from "@/components/dashboard/review/decision-dialog-parts";
import { DecisionSummary } from "@/components/dashboard/review/decision-summary";
import { findNextTransfer, OpenNextToggle, useOpenNextSetting } from "@/components/dashboard/review/open-next";
import { usePatientHistory } from "@/components/dashboard/review/use-patient-history";
import { RejectDialog, type RejectPrefill } from "@/components/dashboard/review/reject-dialog";
import { ReviewStatusLine } from "@/components/dashboard/review/review-status-line";
import { useReviewClaim } from "@/components/dashboard/review/use-review-claim";
import { transferQueryKey, useTransferActivity } from "@/components/dashboard/review/use-transfer-activity";
import { ShortcutsBar } from "@/components/dashboard/shortcuts-help";
import { useShortcuts } from "@/components/dashboard/use-shortcuts";
import { Button, buttonClass } from "@/components/ui/button";
import type { DecisionResult } from "@/lib/transfers/decision";
import type { ApproveInput, RejectInput } from "@/lib/transfers/decision/client-safe";
import type { TransferActivity } from "@/lib/transfers/record";

type Notice = { tone: "ok" | "error"; text: string };
type DecisionRequest = { kind: "approve"; body: ApproveInput } | { kind: "reject"; body: RejectInput };

/** Approve or reject on the server; the outcome (or the conflict that stopped it) as a notice, in words. */
function useDecision(opts: {
  referenceID: string;
  /** The dialog closes; `decided` when this decision was recorded (the claim ended with it). */
  onDone: (decided: boolean) => void;
  setNotice: (notice: Notice) => void;
  refresh: () => Promise<void>;
}) {
  const { referenceID, onDone, setNotice, refresh } = opts;
  return useMutation({
    mutationFn: (input: DecisionRequest) =>
      apiFetch<DecisionResult>(`/api/transfers/${encodeURIComponent(referenceID)}/${input.kind}`, {
        method: "POST",
        body: input.body,
      }),
    onSuccess: (result) => {
      onDone(true);
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
      if (!isConflict(error)) return; // shown in the dialog, which stays open
      onDone(false);
      setNotice({ tone: "error", text: conflictMessage(error) });
      void refresh();
    },
  });
}

export function ReviewActions({
  referenceID,
  initial,
  user,
  summary,
  approval,
  windowMs,
  storeTimeZone,
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
  /** The receiving store's time zone: the window's end is said in the store's own clock. */
  storeTimeZone: string;
  claimMs: number;
  /** Why approval is refused today (drug-review.ts), in words; empty when it is not. */
  blocked: string[];
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const activity = useTransferActivity(referenceID, initial).data;
  const [dialog, setDialog] = useState<"approve" | "reject" | null>(null);
  const [rejectPrefill, setRejectPrefill] = useState<RejectPrefill | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const isPharmacist = user.role === "pharmacist";
  const pending = activity.status === "RECEIVED";
  const claim = activity.claim;
  const mine = claim?.heldById === user.id;
  const heldByOther = Boolean(claim && !mine);
  const canDecide = isPharmacist && pending && !heldByOther;
  const refresh = () => queryClient.invalidateQueries({ queryKey: transferQueryKey(referenceID) });
  const [openNext] = useOpenNextSetting();
  const nextForPatient = usePatientHistory(referenceID).data?.nextForPatient?.referenceID;
  const reviewClaim = useReviewClaim({ referenceID, claimable: canDecide, claimMs, refresh });
  const decide = useDecision({
    referenceID,
    refresh,
    setNotice,
    onDone: (decided) => {
      if (decided) reviewClaim.forget();
      setDialog(null);
      if (decided && openNext) {
        void findNextTransfer({ referenceID, userId: user.id, nextForPatient: nextForPatient ?? null }).then(
          (next) => {
            if (next) router.push(`/transfers/${encodeURIComponent(next)}`);
          },
          () => {}, // the notice already says the decision went through; the queue is one key away
        );
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

  const dialogError = decide.error && !isConflict(decide.error) ? conflictMessage(decide.error) : null;

  return (
    <div className="space-y-2">
      <ReviewStatusLine
        activity={activity}
        userId={user.id}
        isPharmacist={isPharmacist}
        windowMs={windowMs}
        storeTimeZone={storeTimeZone}
      />
      {activity.decision && <DecisionSummary referenceID={referenceID} decision={activity.decision} />}

      {notice && (
        <p
          role={notice.tone === "error" ? "alert" : "status"}
          className={`rounded border px-3 py-1.5 ${notice.tone === "error" ? "border-red-300 bg-red-50 text-red-900" : "border-emerald-300 bg-emerald-50 text-emerald-900"}`}
        >
          {notice.text}
        </p>
      )}
      {reviewClaim.renewalError && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-1.5 text-amber-900">
          The claim could not be renewed: {conflictMessage(reviewClaim.renewalError)}
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
              <OpenNextToggle />
              {mine && (
                <Button
                  variant="ghost"
                  onClick={async () => {
                    await reviewClaim.release();
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
