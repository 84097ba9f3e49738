"use client";
// The transfer's live state (status, claim, decision, callbacks), polled while the review screen is open and
// shared by the header's actions and the activity panel.
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/dashboard/api-client";
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
