"use client";
// The pharmacist's claim on the transfer under review: taken on opening (a pharmacist, a pending transfer
// nobody else holds), renewed while the screen stays open, released when the pharmacist leaves or decides.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { apiFetch } from "@/components/dashboard/api-client";
import { isConflict } from "@/components/dashboard/review/conflict-message";
import type { ClaimState } from "@/lib/transfers/decision";

export function useReviewClaim(opts: {
  referenceID: string;
  claimable: boolean;
  claimMs: number;
  refresh: () => Promise<void>;
}) {
  const { referenceID, claimable, claimMs, refresh } = opts;
  const claimUrl = `/api/transfers/${encodeURIComponent(referenceID)}/claim`;
  // Whether this screen holds the claim now: read by the release on leaving, which must not wait for a render.
  const holdsClaim = useRef(false);

  const claimMutation = useMutation({
    mutationFn: (background: boolean) => apiFetch<ClaimState>(claimUrl, { method: "POST", background }),
    onSuccess: () => {
      holdsClaim.current = true;
      void refresh();
    },
    onError: (error) => {
      holdsClaim.current = false;
      if (isConflict(error)) void refresh();
    },
  });
  const { mutate: claimNow } = claimMutation;

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
      void apiFetch(claimUrl, { method: "DELETE", background: true, keepalive: true }).catch(() => {});
    };
    window.addEventListener("pagehide", release);
    return () => {
      window.removeEventListener("pagehide", release);
      release();
    };
  }, [claimUrl]);

  return {
    /** The renewal's failure that is not a conflict (the screen says the claim could not be renewed). */
    renewalError: claimMutation.error && !isConflict(claimMutation.error) ? claimMutation.error : null,
    /** A decision ends the claim on the server: nothing to release on leaving. */
    forget: () => {
      holdsClaim.current = false;
    },
    /** "Release and back to queue": gives the claim up now. */
    release: async () => {
      holdsClaim.current = false;
      await apiFetch(claimUrl, { method: "DELETE" }).catch(() => {});
    },
  };
}
