"use client";
// The alert summary every dashboard screen polls (one query, shared by the banner and the tab title).
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/dashboard/api-client";
import type { AlertSummary } from "@/lib/alerts/alert-summary";

export function useAlertSummary(pollMs: number) {
  return useQuery({
    queryKey: ["alerts", "summary"],
    // A background request: the screen's own polling does not keep an idle session alive.
    queryFn: () => apiFetch<AlertSummary>("/api/transfers/alerts", { background: true }),
    refetchInterval: pollMs,
    refetchIntervalInBackground: true,
    retry: false,
  });
}
