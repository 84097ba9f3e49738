"use client";
// The patient's history for the review screen, read once per screen (it is an audited view, so it is not
// refreshed on a timer). The history panel, the duplicate-therapy warning and "Next for this patient" share it.
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/dashboard/api-client";
import type { PatientHistory } from "@/lib/transfers/review";

export function usePatientHistory(referenceID: string) {
  return useQuery({
    queryKey: ["patient-history", referenceID],
    queryFn: () => apiFetch<PatientHistory>(`/api/transfers/${encodeURIComponent(referenceID)}/history`),
    staleTime: Infinity,
    retry: 1,
  });
}
