"use client";
// The alert summary every dashboard screen polls (one query, shared by the banner and the tab title). The
// layout reads the first one on the server, so a banner is there in the first paint rather than pushing the
// screen down when it arrives.
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/dashboard/api-client";
import type { AlertSummary } from "@/lib/alerts/alert-summary";

export function useAlertSummary(pollMs: number, initial: AlertSummary | null) {
  return useQuery({
    queryKey: ["alerts", "summary"],
    // A background request: the screen's own polling does not keep an idle session alive.
    queryFn: () => apiFetch<AlertSummary>("/api/transfers/alerts", { background: true }),
    initialData: initial ?? undefined,
    // The server's summary is fresh when the screen mounts: read again at the next poll, not at once.
    staleTime: pollMs,
    refetchInterval: pollMs,
    refetchIntervalInBackground: true,
    retry: false,
  });
}
