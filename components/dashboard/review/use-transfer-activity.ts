"use client";
// The transfer's live state (status, claim, decision, callbacks), polled while the review screen is open and
// shared by the header's actions and the activity panel. While the sender's callback is on its way it is
// polled every second, so "delivered" (or a failed attempt) shows as soon as it happens, not a poll later.
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/dashboard/api-client";
import type { TransferActivity } from "@/lib/transfers/record";

export const ACTIVITY_REFRESH_MS = 5_000;
export const CALLBACK_PENDING_REFRESH_MS = 1_000;

export function transferQueryKey(referenceID: string) {
  return ["transfer", referenceID] as const;
}

export function useTransferActivity(referenceID: string, initial: TransferActivity) {
  return useQuery({
    queryKey: transferQueryKey(referenceID),
    queryFn: () =>
      apiFetch<TransferActivity>(`/api/transfers/${encodeURIComponent(referenceID)}/status`, { background: true }),
    initialData: initial,
    // The page's own reading is fresh when the screen opens: not asked again at once (the claim's answer
    // refreshes it anyway).
    initialDataUpdatedAt: () => new Date(initial.serverTime).getTime(),
    staleTime: CALLBACK_PENDING_REFRESH_MS,
    refetchInterval: (query) =>
      query.state.data?.callback?.status === "PENDING" ? CALLBACK_PENDING_REFRESH_MS : ACTIVITY_REFRESH_MS,
  });
}
